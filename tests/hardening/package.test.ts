/**
 * Install: the declared engines, every locked dependency's engines and the Node this runs on
 * agree (so `npm ci` prints no engine warning), dependencies are pinned, and the LICENSE file
 * is the license package.json names.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./helpers.js";

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  license: string;
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, { engines?: { node?: string }; version?: string }>;
};

type V = [number, number, number];
const parse = (v: string): V => {
  const p = v
    .replace(/^v/, "")
    .split(".")
    .map((x) => (x === "*" || x === "x" || x === undefined ? 0 : Number(x)));
  return [p[0] ?? 0, p[1] ?? 0, p[2] ?? 0];
};
const cmp = (a: V, b: V): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** npm's range forms found in engines fields: *, >=, >, ^, X.*, X.x, X, and || of those. */
function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split("||").some((alt) => {
    const t = alt.trim().replace(/\s+/g, "");
    if (t === "*" || t === "") return true;
    let m: RegExpExecArray | null;
    if ((m = /^>=(.+)$/.exec(t))) return cmp(v, parse(m[1]!)) >= 0;
    if ((m = /^>(.+)$/.exec(t))) return cmp(v, parse(m[1]!)) > 0;
    if ((m = /^\^(.+)$/.exec(t))) {
      const lo = parse(m[1]!);
      return cmp(v, lo) >= 0 && v[0] === lo[0];
    }
    if ((m = /^(\d+)(?:\.(?:\*|x))?$/.exec(t))) return v[0] === Number(m[1]);
    throw new Error(`range form not understood: ${alt}`);
  });
}

describe("install", () => {
  it("every locked package accepts the lowest Node of each declared engines line, and this Node", () => {
    expect(satisfies("20.18.0", pkg.engines.node)).toBe(false); // yargs 18 and vite need 20.19
    const lows = pkg.engines.node.split("||").map((alt) => alt.trim().replace(/^[\^>=]+/, ""));
    expect(lows).toEqual(["20.19.0", "22.13.0", "24"]);
    expect(satisfies(process.version, pkg.engines.node)).toBe(true);
    const bad: string[] = [];
    for (const [name, p] of Object.entries(lock.packages)) {
      const range = p.engines?.node;
      if (!range || name === "") continue;
      for (const v of [...lows, process.version])
        if (!satisfies(v, range))
          bad.push(
            `${name.replace(/^.*node_modules\//, "")}@${p.version} needs node ${range}, not ${v}`,
          );
    }
    expect(bad).toEqual([]);
    expect(lock.packages[""]!.engines!.node).toBe(pkg.engines.node);
  });

  it("dependencies are pinned; csv-parse sits beside csv-stringify; vega-lite is a Node 20 release", () => {
    for (const [name, v] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }))
      expect(v, name).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.dependencies["csv-parse"]).toBeDefined();
    expect(pkg.dependencies["csv-stringify"]).toBeDefined();
    expect(satisfies("20.19.0", lock.packages["node_modules/vega-lite"]!.engines!.node!)).toBe(
      true,
    );
  });

  it("LICENSE is the MIT license package.json names", () => {
    expect(pkg.license).toBe("MIT");
    expect(existsSync(join(root, "LICENSE"))).toBe(true);
    const text = readFileSync(join(root, "LICENSE"), "utf8");
    expect(text.split("\n")[0]).toBe("MIT License");
    expect(text).toContain("Permission is hereby granted, free of charge");
    expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS"');
  });
});
