/**
 * Runs once before the tests: refreshes dist/'s JavaScript from the sources (well under a second),
 * because the tests that run the command line as users do start `bin/penguin.js`, which loads
 * dist/. From a fresh clone `npm ci` has already built dist/ through `prepare`; this keeps it in
 * step with local edits.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

export default function setup(): void {
  execFileSync(process.execPath, [join(import.meta.dirname, "../../scripts/build.mjs"), "--js"], {
    stdio: "inherit",
  });
}
