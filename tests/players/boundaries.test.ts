/**
 * Module boundaries: the rules, the environment, the agents, the solver and the players never
 * reach training code (src/train) or TensorFlow.js, so playing a trained model needs neither, and
 * training can import players without a cycle. Every import specifier is read from the source,
 * static and dynamic alike.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

/** Every import of a file: relative ones resolved to a path under src, packages by name. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']/g)) {
    const spec = m[1]!;
    out.push(spec.startsWith(".") ? relative(src, resolve(dirname(file), spec)) : spec);
  }
  return out;
}

function filesUnder(area: string): string[] {
  return readdirSync(join(src, area), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(src, area, f));
}

/** The areas each play-side area may import (besides itself, src/util and src/errors). */
const ALLOWED: Record<string, readonly string[]> = {
  engine: [],
  env: ["engine"],
  agents: ["engine", "env", "players", "solver"],
  solver: ["engine", "env", "agents"],
  players: ["engine", "env", "agents", "solver"],
};

describe("module boundaries", () => {
  for (const [area, allowed] of Object.entries(ALLOWED))
    it(`src/${area} imports only ${[...allowed, "util"].join(", ")}, never training code or TensorFlow.js`, () => {
      const bad: string[] = [];
      for (const f of filesUnder(area))
        for (const spec of importsOf(f)) {
          if (spec.startsWith("@tensorflow")) bad.push(`${relative(src, f)} → ${spec}`);
          if (spec.startsWith("node:") || (!spec.includes("/") && !spec.startsWith("."))) continue;
          const top = spec.split("/")[0]!;
          if (top === area || top === "util" || spec.startsWith("errors")) continue;
          if (spec.startsWith("@") || !/^[a-z]+\//.test(spec)) continue;
          if (!allowed.includes(top)) bad.push(`${relative(src, f)} → ${spec}`);
        }
      expect(bad).toEqual([]);
    });

  it("the check sees a training import (the scanner itself works)", () => {
    const train = filesUnder("train").flatMap(importsOf);
    expect(train.some((s) => s.startsWith("players/"))).toBe(true);
    expect(train.some((s) => s.startsWith("@tensorflow") || s.includes("backend"))).toBe(true);
  });
});
