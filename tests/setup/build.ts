/**
 * Runs once before the tests: refreshes dist/'s JavaScript from the sources (well under a second),
 * because worker threads load built .js modules only (src/eval/worker-url.ts). From a fresh clone
 * `npm ci` has already built dist/ through `prepare`; this keeps it in step with local edits.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

export default function setup(): void {
  execFileSync(process.execPath, [join(import.meta.dirname, "../../scripts/build.mjs"), "--js"], {
    stdio: "inherit",
  });
}
