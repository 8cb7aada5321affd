#!/usr/bin/env node
// The `penguin` command: runs the built JavaScript in dist/ (`npm run build` writes it; `npm ci`
// and `npm install` do so through the `prepare` script).
try {
  await import("../dist/src/cli/main.js");
} catch (e) {
  if (e?.code === "ERR_MODULE_NOT_FOUND" && String(e.message).includes("dist/src/cli/main.js")) {
    process.stderr.write(
      "penguin: dist/ is not built; run `npm run build` in the package folder\n",
    );
    process.exit(2);
  }
  throw e;
}
