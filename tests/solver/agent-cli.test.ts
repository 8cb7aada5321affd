import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { applyMove, deal, formatBoard, resolveRules, type State } from "../../src/engine/index.js";
import { ActionCodec } from "../../src/env/actions.js";
import { solve } from "../../src/solver/index.js";
import { createSolverAgent } from "../../src/solver/solver-agent.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ["bin/penguin.js", ...args], { cwd: root });
    let out = "";
    let err = "";
    p.stdout.on("data", (d: Buffer) => (out += d));
    p.stderr.on("data", (d: Buffer) => (err += d));
    p.on("close", (code) => resolve({ code, out, err }));
  });
}

/** Plays an agent through the action codec until the game is won or `limit` moves pass. */
async function playOut(
  rules: ReturnType<typeof resolveRules>,
  start: State,
  options: Record<string, string>,
  limit = 2000,
): Promise<boolean> {
  const agent = await createSolverAgent(options, rules);
  const codec = new ActionCodec(rules);
  const mask = new Uint8Array(codec.n);
  const s = start.clone();
  agent.reset(s, 0);
  for (let i = 0; i < limit && !s.isWon(); i++) {
    if (codec.fillMask(s, mask) === 0) return false;
    const a = agent.act({ state: s, mask, observation: new Float32Array(0), codec });
    expect(mask[a]).toBe(1);
    applyMove(s, codec.decode(s, a));
  }
  return s.isWon();
}

describe("solver agent", () => {
  it("wins solvable Penguin deals through the action codec", async () => {
    const rules = resolveRules("penguin");
    for (let seed = 0; seed < 5; seed++)
      expect(await playOut(rules, deal(rules, seed), {}), `seed ${seed}`).toBe(true);
  });

  it("plays legal moves and loses an unsolvable deal", async () => {
    const rules = resolveRules("penguin", { cells: 3 });
    const start = deal(rules, 0);
    expect(solve(start).result).toBe("unsolvable");
    expect(await playOut(rules, start, { "max-states": "100000" }, 300)).toBe(false);
  });

  it("names its options and rejects unknown ones", async () => {
    expect((await createSolverAgent({ "max-states": "5000" }, resolveRules("penguin"))).name).toBe(
      "solver(max-states=5000)",
    );
    expect(() => createSolverAgent({ depth: 3 }, resolveRules("penguin"))).toThrow(
      /unknown solver option "depth"/,
    );
  });
});

describe("penguin solve", () => {
  it("prints exactly result, moves, states and ms as JSON", async () => {
    const r = await run(["solve", "--rules", "penguin", "--seed", "1", "--json"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Record<string, unknown>;
    expect(Object.keys(j)).toEqual(["result", "moves", "states", "ms"]);
    expect(j.result).toBe("solved");
    expect((j.moves as string[]).every((m) => /^[0-9a-h][0-9a-h](\/\d+)?$/.test(m))).toBe(true);
    const u = JSON.parse(
      (await run(["solve", "--rules", "freecell", "--ms", "11982", "--json"])).out,
    ) as Record<string, unknown>;
    expect(Object.keys(u)).toEqual(["result", "states", "ms"]);
    expect(u.result).toBe("unsolvable");
  });

  it("reads --board files and exits 2 on bad input", async () => {
    mkdirSync(`${root}.tmp`, { recursive: true });
    const file = `${root}.tmp/solver-test.board`;
    writeFileSync(file, formatBoard(deal(resolveRules("penguin"), 2)));
    const b = await run(["solve", "--board", file, "--json", "--max-states", "3"]);
    expect(b.code).toBe(0);
    expect(JSON.parse(b.out)).toMatchObject({ result: "unknown", states: 3 });
    for (const bad of [
      ["--seed", "1", "--max-states", "0"],
      ["--board", `${root}.tmp/no-such.board`],
    ]) {
      const r = await run(["solve", ...bad]);
      expect(r.code, bad.join(" ")).toBe(2);
      expect(r.err.trim().split("\n")).toHaveLength(1);
    }
  });
});
