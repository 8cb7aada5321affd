#!/usr/bin/env node
/**
 * `npm run build`: writes dist/. JavaScript comes from esbuild (one file per source file, ES
 * modules, minified to keep the package small (under 1 MB with the shipped network), source maps beside it: the package does not
 * ship them, so run from a clone, or with `node --enable-source-maps` on a local build, to get
 * stack traces in source terms); the `.d.ts` files come from tsc (types only, without comments,
 * for the same reason, and only those the public entry points reach). dist/src is the package;
 * experiments, scripts and tests run from the TypeScript sources (tsx, vitest), worker threads too.
 *
 *   node scripts/build.mjs          full build (dist/ is emptied first)
 *   node scripts/build.mjs --js     JavaScript only, in place (fast; tests and scripts use it)
 *   node scripts/build.mjs --package  full build without source maps (what npm pack runs)
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const jsOnly = process.argv.includes("--js");
// `npm pack` and `npm publish` build through `prepare`: the package ships no source maps, so its
// files get no comment pointing at a map that is not there (about 7 kB over 200 files).
const forPackage =
  process.argv.includes("--package") || ["pack", "publish"].includes(process.env.npm_command ?? "");
const entryPoints = readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
  .map((f) => join(root, "src", f));

if (!jsOnly) rmSync(join(root, "dist"), { recursive: true, force: true });
await build({
  entryPoints,
  outdir: join(root, "dist"),
  outbase: root,
  format: "esm",
  platform: "node",
  target: "node20",
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: true,
  // Non-ASCII text (dashes, ≥, card suits) as UTF-8, not as \uXXXX escapes: about 0.2 kB.
  charset: "utf8",
  sourcemap: !forPackage,
  logLevel: "warning",
});
if (!jsOnly) {
  const tsc = spawnSync(
    process.execPath,
    [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")],
    { stdio: "inherit" },
  );
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  pruneDeclarations(join(root, "dist/src"), ["index.d.ts", "train/index.d.ts"]);
  standInTfTypes(join(root, "dist/src/train/backend.d.ts"));
}

/**
 * TensorFlow.js's own declarations fail a strict check (`skipLibCheck: false`), and it is an
 * optional peer a consumer may not have installed: the shipped declarations name its few types
 * that our API shows through structural stand-ins instead of importing them. A tfjs object fits
 * its stand-in, so code that has tfjs still passes its models and tensors in.
 */
function standInTfTypes(file) {
  const from = 'import * as tf from "@tensorflow/tfjs";';
  const text = readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`build: ${file} no longer imports tfjs as expected`);
  const standIn = `/** Stand-ins for the TensorFlow.js types this package's API shows (values are tfjs's own). */
declare namespace tf {
 interface Tensor { readonly shape: number[]; readonly dtype: string; dispose(): void }
 interface Scalar extends Tensor {}
 interface Tensor1D extends Tensor {}
 interface Tensor2D extends Tensor {}
 interface Tensor3D extends Tensor {}
 interface Variable extends Tensor { readonly name: string; readonly trainable: boolean }
 interface LayersModel { readonly name: string; dispose(): unknown }
 namespace io {
  interface WeightsManifestEntry { name: string; shape: number[]; dtype: string }
 }
}`;
  writeFileSync(file, text.replace(from, standIn));
  for (const f of readdirSync(dirname(file), { recursive: true, encoding: "utf8" }))
    if (
      f.endsWith(".d.ts") &&
      readFileSync(join(dirname(file), f), "utf8").includes("@tensorflow/")
    )
      throw new Error(`build: dist/src/train/${f} still names a TensorFlow.js module`);
}

/**
 * Keeps only the `.d.ts` files that the public entry points reach through their imports: the
 * others describe internal modules no consumer can name, and would cost package size.
 */
function pruneDeclarations(dir, entries) {
  const keep = new Set();
  const stack = entries.map((e) => resolve(dir, e));
  while (stack.length > 0) {
    const file = stack.pop();
    if (keep.has(file)) continue;
    keep.add(file);
    for (const m of readFileSync(file, "utf8").matchAll(
      /(?:from\s+|import\()\s*["'](\.[^"']+)["']/g,
    )) {
      const target = `${join(dirname(file), m[1]).replace(/\.js$/, "")}.d.ts`;
      if (!existsSync(target))
        throw new Error(`build: ${file} imports ${m[1]}, which has no declaration`);
      stack.push(target);
    }
  }
  for (const f of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = resolve(dir, f);
    if (!f.endsWith(".d.ts")) continue;
    if (!keep.has(path)) rmSync(path);
    // tsc indents by four spaces; one per level reads as well and saves about 2.5 kB. Private
    // members (`private name;`, no type) tell a consumer nothing they may use: about 2.9 kB more.
    // In a declaration file `export` alone makes a declaration ambient, so `declare` after it
    // says nothing: about 1.7 kB. A typed array's buffer type (`Uint8Array<ArrayBuffer>`, which
    // tsc writes for a field set with `new Uint8Array(n)`) is left at its default, as the other
    // typed-array fields are declared: about 0.13 kB.
    else {
      const text = readFileSync(path, "utf8")
        .replace(/^ *private (?:readonly )?\w+;\n/gm, "")
        .replace(/^((?: {4})+)/gm, (m) => " ".repeat(m.length / 4))
        .replace(/^export declare /gm, "export ")
        .replace(
          /(Int8|Uint8|Int16|Uint16|Int32|Uint32|Float32|Float64)Array<ArrayBuffer>/g,
          "$1Array",
        );
      writeFileSync(path, text);
    }
  }
}
