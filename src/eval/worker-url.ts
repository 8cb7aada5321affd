/**
 * Where a worker thread's module is. Worker threads run plain Node, which loads JavaScript only,
 * so they always load the built `.js` files. From the package (dist/) that is the file next to
 * the caller. From the TypeScript sources (tests, `tsx` scripts) it is the same path under
 * dist/, which `npm run build` writes (`npm ci` runs it through `prepare`, and the test setup,
 * `npm start`, `npm run bench` and `npm run penguin` refresh it first). A dist/ older than the
 * sources is refused, so a worker never runs other code than the thread that started it.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root when this file runs from source (src/eval/worker-url.ts), else undefined. */
const sourceRoot = import.meta.url.endsWith(".ts")
  ? new URL("../../", import.meta.url).href
  : undefined;
/** The folders scripts/build.mjs compiles. */
const BUILT_DIRS = ["src", "experiments", "tests/experiments/fixtures"];
let checked = false;

/** Throws unless every built source file has a dist/ copy at least as new as itself. */
function checkFresh(root: string): void {
  if (checked) return;
  for (const d of BUILT_DIRS) {
    const dir = join(root, d);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
      if (!f.endsWith(".ts") || f.endsWith(".d.ts") || f.endsWith(".test.ts")) continue;
      const built = join(root, "dist", d, f.replace(/\.ts$/, ".js"));
      if (!existsSync(built) || statSync(built).mtimeMs < statSync(join(dir, f)).mtimeMs)
        throw new Error(
          `dist/ is older than ${join(d, f)}, and worker threads run dist/: run \`npm run build\` first`,
        );
    }
  }
  checked = true;
}

/**
 * The built module for `url` (resolve it with `new URL("./x.js", import.meta.url)`): unchanged in
 * the package, dist/<same path>.js when running from source.
 */
export function builtModuleUrl(url: URL | string): URL {
  const href = typeof url === "string" ? url : url.href;
  if (
    sourceRoot === undefined ||
    !href.startsWith(sourceRoot) ||
    href.startsWith(`${sourceRoot}dist/`)
  )
    return new URL(href);
  const root = fileURLToPath(sourceRoot);
  checkFresh(root);
  const built = new URL(
    `dist/${href.slice(sourceRoot.length).replace(/\.ts$/, ".js")}`,
    sourceRoot,
  );
  if (!existsSync(built))
    throw new Error(
      `worker module ${fileURLToPath(built)} is missing: run \`npm run build\` first`,
    );
  return built;
}
