/**
 * TensorFlow.js is an optional peer: a missing install is one line naming what to install; a run
 * names its backend and how to get native TensorFlow; tfjs's own "install our node backend"
 * banner never reaches a log.
 */
import { describe, expect, it, vi } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tfjsMissing, TFJS_INSTALL, withTfjs } from "../../src/util/tfjs.js";
import { UsageError } from "../../src/errors.js";

const root = join(import.meta.dirname, "../..");

describe("TensorFlow.js as an optional peer", () => {
  it("a missing tfjs becomes one line naming the packages; other failures pass through", async () => {
    const missing = Object.assign(
      new Error(
        "Cannot find package '@tensorflow/tfjs' imported from /app/dist/src/train/backend.js",
      ),
      { code: "ERR_MODULE_NOT_FOUND" },
    );
    const e = tfjsMissing(missing, "penguin train");
    expect(e).toBeInstanceOf(UsageError);
    expect(e!.message).toBe(
      `penguin train needs TensorFlow.js, which is not installed: ${TFJS_INSTALL}`,
    );
    expect(e!.message).not.toContain("\n");
    const other = Object.assign(new Error("Cannot find module './x.js'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    expect(tfjsMissing(other, "penguin train")).toBeUndefined();
    await expect(withTfjs("x", () => Promise.reject(missing))).rejects.toThrow(/npm install/);
    await expect(withTfjs("x", () => Promise.reject(other))).rejects.toBe(other);
  });

  it("package.json: tfjs, its wasm backend and tfjs-node are optional peers, installed here as dev dependencies", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    for (const name of [
      "@tensorflow/tfjs",
      "@tensorflow/tfjs-backend-wasm",
      "@tensorflow/tfjs-node",
    ]) {
      expect(pkg.dependencies[name], name).toBeUndefined();
      expect(pkg.peerDependenciesMeta[name], name).toEqual({ optional: true });
    }
    expect(pkg.devDependencies["@tensorflow/tfjs"]).toBe(pkg.peerDependencies["@tensorflow/tfjs"]);
    expect(pkg.optionalDependencies).toBeUndefined();
    expect(pkg.repository.url).toMatch(/^git\+https:\/\//);
    expect(pkg.files).toContain("models/safety/weights.bin");
  });

  it("the backend line names native TensorFlow's install; tfjs's own banner stays silent", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { backendNotice, tf, useBackend } = await import("../../src/train/backend.js");
    expect(await useBackend("cpu")).toBe(true);
    tf.tidy(() => tf.tensor([1, 2, 3]).add(1).dataSync());
    const said = warn.mock.calls.map((c) => c.join(" ")).join("\n");
    warn.mockRestore();
    expect(said).not.toMatch(/install our node backend/);
    expect(backendNotice("wasm")).toMatch(/npm install @tensorflow\/tfjs-node/);
    expect(backendNotice("tensorflow")).not.toMatch(/install/);
  });
});
