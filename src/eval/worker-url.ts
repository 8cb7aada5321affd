/**
 * Where a worker thread's module is. Worker threads run plain Node, which loads JavaScript only,
 * so they always load the built `.js` files. From the package (dist/) that is the file next to
 * the caller. From the TypeScript sources (tests, `tsx` scripts) it is the same path under
 * dist/, which `npm run build` writes (`npm ci` runs it through `prepare`, and the test setup
 * refreshes it before every run).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The repository root when this file runs from source (src/eval/worker-url.ts), else undefined. */
const sourceRoot = import.meta.url.endsWith(".ts") ? new URL("../../", import.meta.url).href : undefined;

/**
 * The built module for `url` (resolve it with `new URL("./x.js", import.meta.url)`): unchanged in
 * the package, dist/<same path>.js when running from source.
 */
export function builtModuleUrl(url: URL | string): URL {
  const href = typeof url === "string" ? url : url.href;
  if (sourceRoot === undefined || !href.startsWith(sourceRoot) || href.startsWith(`${sourceRoot}dist/`)) return new URL(href);
  const built = new URL(`dist/${href.slice(sourceRoot.length).replace(/\.ts$/, ".js")}`, sourceRoot);
  if (!existsSync(built)) throw new Error(`worker module ${fileURLToPath(built)} is missing: run \`npm run build\` first`);
  return built;
}
