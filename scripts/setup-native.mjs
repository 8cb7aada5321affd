#!/usr/bin/env node
/**
 * `npm run setup:native`: makes the optional native backend, @tensorflow/tfjs-node, load.
 *
 * The package is an optional peer, which `npm ci` leaves out and `npm install --no-save` will not
 * add; it is installed into a scratch folder and copied in (package.json and the lock file stay).
 * tfjs-node's own install downloads libtensorflow and a prebuilt addon from its release host.
 * Where that host answers, its normal install is all this script runs. Where it does not, the
 * script builds the addon here instead, against the TensorFlow C library found inside a
 * `tensorflow-cpu` Python wheel (pip's configured index, a local one included):
 *   1. find the wheel (PENGUIN_TF_WHEEL=path, or `pip download --no-deps tensorflow-cpu`);
 *   2. stage its two shared libraries and the C API headers in the package's deps/ folder, under
 *      the names tfjs-node's build expects (its install then skips the download);
 *   3. build the addon from source with node-gyp (Node's headers, no network);
 *   4. check a matrix product against the plain JavaScript backend.
 * It is opt-in (plain `npm ci` stays light) and idempotent. On failure it says why and exits 1;
 * the project keeps running on the WebAssembly backend.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const want = pkg.peerDependencies?.["@tensorflow/tfjs-node"];
const started = performance.now();
const secs = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const say = (line) => console.log(`setup:native: [${secs()}] ${line}`);
const fail = (why) => {
  console.error(`setup:native: failed: ${why}`);
  console.error(
    "setup:native: training still works on the WebAssembly backend (a training step takes about 4x the CPU time; docs/train.md#backends).",
  );
  process.exit(1);
};
/** Scratch folders and half-copied packages, removed however the script ends (process.exit too). */
const leftovers = new Set();
process.on("exit", () => {
  for (const p of leftovers) rmSync(p, { recursive: true, force: true });
});

if (!want) fail("package.json lists no optional peer @tensorflow/tfjs-node");

// The install and the build run for minutes with little to show: the project's heartbeat (built
// into dist/ by npm ci) writes a line to stderr every 10 s meanwhile.
try {
  const { heartbeat } = await import(
    pathToFileURL(join(root, "dist", "src", "cli", "progress.js")).href
  );
  heartbeat("setup:native");
} catch {
  // No dist/ yet (npm ci --ignore-scripts): no progress lines, nothing else changes.
}

/** Runs a command in the project folder; returns its status and output. */
function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: "utf8", maxBuffer: 64 << 20, ...opts });
  return {
    ok: r.status === 0,
    stdout: r.stdout ?? "",
    out: `${r.stdout ?? ""}${r.stderr ?? ""}`,
    error: r.error,
  };
}

/**
 * Loads tfjs-node in a fresh process and compares a seeded 96×96 matrix product with the plain
 * JavaScript backend. Returns the TensorFlow version, or undefined when it does not load.
 */
let lastLoadError = "";
function check() {
  const probe = `
    process.env.TF_CPP_MIN_LOG_LEVEL ??= "2";
    process.env.TF_ENABLE_ONEDNN_OPTS ??= "0";
    const tf = require("@tensorflow/tfjs-node");
    const a = tf.randomUniform([96, 96], -1, 1, "float32", 1), b = tf.randomUniform([96, 96], -1, 1, "float32", 2);
    const native = tf.matMul(a, b).dataSync();
    const av = a.dataSync().slice(), bv = b.dataSync().slice();
    tf.setBackend("cpu").then(() => {
      const js = tf.matMul(tf.tensor2d(av, [96, 96]), tf.tensor2d(bv, [96, 96])).dataSync();
      let d = 0;
      for (let i = 0; i < js.length; i++) d = Math.max(d, Math.abs(js[i] - native[i]));
      tf.setBackend("tensorflow");
      console.log(JSON.stringify({ tf: tf.backend().binding.TF_Version, maxDiff: d }));
    });`;
  const r = run(process.execPath, ["-e", probe]);
  lastLoadError = r.out
    .trim()
    .split("\n")
    .filter((l) => /error/i.test(l))
    .slice(0, 3)
    .join(" | ");
  if (!r.ok) return undefined;
  const last = r.stdout.trim().split("\n").pop() ?? "";
  try {
    const { tf, maxDiff } = JSON.parse(last);
    if (!(maxDiff < 1e-3))
      fail(
        `tfjs-node loads, but its matrix product differs from the JavaScript backend's by ${maxDiff}`,
      );
    return { tf, maxDiff };
  } catch {
    return undefined;
  }
}

function report(how, res) {
  say(
    `${how}: @tensorflow/tfjs-node ${want} loads with TensorFlow ${res.tf}; a 96x96 matmul matches the JavaScript backend (max |diff| ${res.maxDiff.toExponential(1)}), in ${secs()}`,
  );
  say("training now picks the native backend (PENGUIN_TF_BACKEND=wasm forces the old one)");
  process.exit(0);
}

let res = check();
if (res) report("already set up", res);

// 1. The package itself: an optional peer, which `npm ci` does not install. `npm install --no-save`
// cannot add it either: npm counts a declared optional peer as satisfied and answers "up to date".
// So it is installed into a scratch project and copied in: tfjs-node to node_modules/@tensorflow/,
// its own helpers (node-pre-gyp, tar, ...) nested under it, but not the @tensorflow scope, so that it
// registers its backend with the project's single @tensorflow/tfjs.
const require = createRequire(join(root, "package.json"));
let dir;
const locate = () => {
  try {
    dir = dirname(require.resolve("@tensorflow/tfjs-node/package.json"));
  } catch {
    dir = undefined;
  }
};
locate();
// Its install script runs node-pre-gyp, which npm finds in a node_modules/.bin above the package.
const hasInstallTools = (at) => {
  for (let d = at; d !== dirname(d); d = dirname(d))
    if (existsSync(join(d, "node_modules", ".bin", "node-pre-gyp"))) return true;
  return false;
};
if (dir && !hasInstallTools(dir)) {
  say(
    `${relative(root, dir)} has no node-pre-gyp to build with (a partial install); installing it again`,
  );
  rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}
if (!dir) {
  const tfjs = (() => {
    try {
      return JSON.parse(readFileSync(require.resolve("@tensorflow/tfjs/package.json"), "utf8"))
        .version;
    } catch {
      return undefined;
    }
  })();
  if (tfjs !== want)
    fail(
      `@tensorflow/tfjs ${tfjs ?? "is not installed"}${tfjs ? ", not" : "; tfjs-node needs"} ${want}: run npm ci first`,
    );
  say(
    `installing @tensorflow/tfjs-node@${want} without its download step (package.json and the lock file stay as they are)`,
  );
  const scratch = mkdtempSync(join(tmpdir(), "penguin-tfjs-node-"));
  leftovers.add(scratch);
  writeFileSync(
    join(scratch, "package.json"),
    `${JSON.stringify({ name: "penguin-native-scratch", version: "1.0.0", private: true })}\n`,
  );
  // The project's registry (a project .npmrc is not read in the scratch folder).
  const registry = run("npm", ["config", "get", "registry"]).stdout.trim();
  const r = run(
    "npm",
    [
      "install",
      ...(registry ? [`--registry=${registry}`] : []),
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      "--no-package-lock",
      `@tensorflow/tfjs-node@${want}`,
    ],
    { cwd: scratch },
  );
  const from = join(scratch, "node_modules");
  if (!r.ok || !existsSync(join(from, "@tensorflow", "tfjs-node", "package.json")))
    fail(
      `npm could not install @tensorflow/tfjs-node@${want}:\n${r.out.trim().split("\n").slice(-5).join("\n")}`,
    );
  const target = join(root, "node_modules", "@tensorflow", "tfjs-node");
  // Into a temp name first, renamed at the end: a stopped copy leaves no half package behind.
  const temp = `${target}.tmp-${process.pid}`;
  leftovers.add(temp);
  cpSync(join(from, "@tensorflow", "tfjs-node"), temp, {
    recursive: true,
    verbatimSymlinks: true,
  });
  const helpers = helpersOf(from, "@tensorflow/tfjs-node");
  for (const name of helpers) {
    const to = join(temp, "node_modules", name);
    // npm nests a second version under tfjs-node only when another one is at the top.
    if (existsSync(to))
      fail(`two versions of ${name} in tfjs-node's dependencies; cannot lay them out here`);
    cpSync(join(from, name), to, { recursive: true, verbatimSymlinks: true });
  }
  // Their commands too (its install script runs node-pre-gyp): the relative links of .bin.
  const bin = join(from, ".bin");
  for (const cmd of existsSync(bin) ? readdirSync(bin) : []) {
    const link = readlinkSync(join(bin, cmd));
    const owner = relative(from, resolve(bin, link)).split(sep).slice(0, 2);
    if (!helpers.includes(owner[0].startsWith("@") ? owner.join("/") : owner[0])) continue;
    mkdirSync(join(temp, "node_modules", ".bin"), { recursive: true });
    symlinkSync(link, join(temp, "node_modules", ".bin", cmd));
  }
  renameSync(temp, target);
  leftovers.delete(temp);
  rmSync(scratch, { recursive: true, force: true });
  locate();
  if (!dir) fail("@tensorflow/tfjs-node is still not resolvable after its install");
}

/**
 * The top-level packages of the scratch `node_modules` that `name` needs, directly or through
 * others (a package's own nested node_modules travel with it), leaving out the @tensorflow scope.
 */
function helpersOf(modules, name) {
  const need = new Set();
  const seen = new Set();
  const visit = (pkgDir) => {
    if (seen.has(pkgDir)) return;
    seen.add(pkgDir);
    const meta = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
    for (const dep of Object.keys({ ...meta.dependencies, ...meta.optionalDependencies })) {
      if (dep.startsWith("@tensorflow/")) continue;
      // Node's lookup: the nearest node_modules/dep from the package's folder up to the top.
      let at;
      for (let d = pkgDir; d.startsWith(modules); d = dirname(d)) {
        const candidate = join(d, "node_modules", dep);
        if (d !== modules && existsSync(join(candidate, "package.json"))) {
          at = candidate;
          break;
        }
      }
      at ??= join(modules, dep);
      if (!existsSync(join(at, "package.json"))) continue; // an optional one left out
      if (at === join(modules, dep)) need.add(dep);
      visit(at);
    }
  };
  visit(join(modules, name));
  return [...need].sort();
}

// 2. Where its release host answers, the package's own install is all that is needed.
say("trying tfjs-node's own install (it downloads from its release host)");
const own = run("npm", ["rebuild", "@tensorflow/tfjs-node", "--foreground-scripts"], {
  timeout: 180_000,
});
res = own.ok ? check() : undefined;
if (res) report("tfjs-node's own install worked", res);
say("its own install could not download; building it from a TensorFlow wheel instead");

// 3. The wheel.
let wheel = process.env.PENGUIN_TF_WHEEL;
let downloaded;
if (wheel && !existsSync(wheel)) fail(`PENGUIN_TF_WHEEL=${wheel} does not exist`);
if (!wheel) {
  // A scratch folder: the wheel is needed only until its libraries are staged.
  const cache = mkdtempSync(join(tmpdir(), "penguin-native-"));
  downloaded = cache;
  const have = () => readdirSync(cache).find((f) => /^tensorflow(_cpu)?-.*\.whl$/.test(f));
  if (!have()) {
    // The version tfjs-node was checked against first, then whatever the index offers.
    for (const spec of ["tensorflow-cpu==2.21.0", "tensorflow-cpu", "tensorflow"]) {
      say(`pip download --no-deps ${spec}`);
      const r = run(
        "python3",
        ["-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", "-d", cache, spec],
        { timeout: 900_000 },
      );
      if (r.ok && have()) break;
    }
  }
  if (!have()) {
    rmSync(cache, { recursive: true, force: true });
    fail(
      "no tensorflow-cpu wheel: pip found none on its index (set PENGUIN_TF_WHEEL=/path/to/tensorflow_cpu-….whl)",
    );
  }
  wheel = join(cache, have());
}
say(`wheel ${wheel} (${(statSync(wheel).size / 2 ** 20).toFixed(0)} MiB)`);

// 4. Stage the libraries and headers where tfjs-node's binding.gyp and install script look.
const constants = require(join(dir, "scripts", "deps-constants.js"));
const deps = constants.depsPath;
const lib = constants.depsLibPath;
rmSync(deps, { recursive: true, force: true });
mkdirSync(lib, { recursive: true });
const extract = `
import sys, zipfile, shutil, os
wheel, deps = sys.argv[1], sys.argv[2]
z = zipfile.ZipFile(wheel)
names = set(z.namelist())
libs = ["tensorflow/libtensorflow_cc.so.2", "tensorflow/libtensorflow_framework.so.2"]
for n in libs:
    if n not in names: sys.exit("the wheel has no " + n)
    with z.open(n) as s, open(os.path.join(deps, "lib", os.path.basename(n)), "wb") as d: shutil.copyfileobj(s, d, 1 << 20)
# The C API headers and the few platform headers they include.
pre = "tensorflow/include/"
keep = ("tensorflow/c/", "tensorflow/core/platform/", "tsl/", "xla/tsl/c/", "xla/tsl/platform/")
count = 0
for n in names:
    if n.startswith(pre) and not n.endswith("/") and n[len(pre):].startswith(keep):
        out = os.path.join(deps, "include", n[len(pre):])
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with z.open(n) as s, open(out, "wb") as d: shutil.copyfileobj(s, d)
        count += 1
if count == 0: sys.exit("the wheel has no C API headers under " + pre)
print(count)`;
const ex = run("python3", ["-c", extract, wheel, deps]);
if (downloaded) rmSync(downloaded, { recursive: true, force: true });
if (!ex.ok) fail(`could not unpack the wheel: ${ex.out.trim()}`);
const link = (target, name) => {
  const at = join(lib, name);
  if (existsSync(at) || lstatSync(at, { throwIfNoEntry: false })) rmSync(at);
  symlinkSync(relative(lib, join(lib, target)), at);
};
// binding.gyp links -ltensorflow -ltensorflow_framework; the addon then records the libraries'
// own sonames (libtensorflow_cc.so.2, libtensorflow_framework.so.2) and finds them by rpath.
link("libtensorflow_cc.so.2", "libtensorflow.so");
link("libtensorflow_framework.so.2", "libtensorflow_framework.so");
// tfjs-node's install downloads unless its pinned library file exists.
link("libtensorflow_cc.so.2", constants.depsLibTensorFlowName);
const sizeMiB =
  (statSync(join(lib, "libtensorflow_cc.so.2")).size +
    statSync(join(lib, "libtensorflow_framework.so.2")).size) /
  2 ** 20;
say(
  `staged the TensorFlow libraries (${sizeMiB.toFixed(0)} MiB) and ${ex.out.trim()} headers in ${relative(root, deps)}`,
);

// 5. Build the addon from source.
say("building the addon from source (node-gyp, Node's own headers)");
const build = run("npm", ["rebuild", "@tensorflow/tfjs-node", "--foreground-scripts"], {
  env: { ...process.env, npm_config_build_from_source: "true" },
  timeout: 900_000,
});
if (!build.ok)
  fail(`the addon did not build:\n${build.out.trim().split("\n").slice(-12).join("\n")}`);
res = check();
if (!res)
  fail(
    `the addon built but @tensorflow/tfjs-node still does not load: ${lastLoadError || "no error message"}`,
  );
report("built from the wheel", res);
