/** `penguin deal` and `penguin play` run as subprocesses, as a user would run them. */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { dealMs, parseCard, resolveRules } from "../../src/engine/index.js";
import { playSession } from "../../src/cli/play.js";
import { position } from "./position.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}
function penguin(args: string[], stdin = ""): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ["bin/penguin.js", ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: "" },
    });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    p.on("error", reject);
    p.on("close", (code) => resolve({ code, stdout, stderr }));
    p.stdin.end(stdin);
  });
}

describe("penguin deal", () => {
  it("--json gives exactly the documented object (Penguin #1)", async () => {
    const r = await penguin(["deal", "--rules", "penguin", "--ms", "1", "--json"]);
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout))).toEqual([
      "rules",
      "base",
      "columns",
      "cells",
      "foundations",
    ]);
    expect(JSON.parse(r.stdout)).toEqual({
      rules: "penguin",
      base: "J",
      columns: [
        ["JD", "KD", "3H", "3C", "4D", "2C", "3D"],
        ["2D", "KC", "2S", "4C", "7S", "7D", "8C"],
        ["9H", "9S", "KS", "5C", "3S", "6D", "TC"],
        ["5D", "5S", "9D", "TS", "TD", "8S", "6S"],
        ["7H", "AD", "QD", "QH", "4S", "8D", "9C"],
        ["7C", "QC", "AS", "4H", "TH", "QS", "2H"],
        ["5H", "KH", "AH", "AC", "8H", "6C", "6H"],
      ],
      cells: [null, null, null, null, null, null, null],
      foundations: { C: "JC", D: null, H: "JH", S: "JS" },
    });
  });
  it("--json for Eight Off (cells) and FreeCell with overrides; plain board without colour", async () => {
    const [eight, fc, plain] = await Promise.all([
      penguin(["deal", "--rules", "eight-off", "--ms", "1", "--json"]),
      penguin(["deal", "--rules", "freecell", "--cells", "2", "--seed", "abc", "--json"]),
      penguin(["deal", "--ms", "1", "--no-color"]),
    ]);
    const e = JSON.parse(eight.stdout);
    expect(e.cells).toEqual(["6S", "9C", "2H", "6H", null, null, null, null]);
    expect(e.base).toBe("A");
    expect(e.foundations).toEqual({ C: null, D: null, H: null, S: null });
    const f = JSON.parse(fc.stdout);
    expect(f.cells).toEqual([null, null]);
    expect(f.columns.flat()).toHaveLength(52);
    expect(plain.stdout).not.toContain("\x1b[");
    expect(plain.stdout).toContain(" J♦   2♦   9♥   5♦   7♥   7♣   5♥");
  });
  it("bad input: exit code 2 and one line on stderr naming what is allowed", async () => {
    const cases: [string[], RegExp][] = [
      [
        ["deal", "--rules", "pengiun", "--ms", "1"],
        /^penguin: unknown rules "pengiun"; known: penguin, penguin-relaxed, opus/,
      ],
      [["deal", "--ms", "0"], /from 1 to 2147483647/],
      [["deal", "--ms", "1", "--cells", "9"], /cells must be an integer from 0 to 8/],
      [["deal", "--ms", "1", "--empty", "kings"], /allowed: below-base, any, none/],
      [
        ["deal", "--ms", "1", "--group-move", "many"],
        /allowed: unlimited, supermove, free-cells, single/,
      ],
      [
        ["deal", "--ms", "1", "--foundations", "pile"],
        /unknown foundation rule "pile"; allowed: suit, rank/,
      ],
      [
        ["deal", "--rules", "stalactites", "--ms", "1", "--foundations", "suit"],
        /the stalactites deal .* needs foundations "rank"/,
      ],
      [["deal", "--ms", "1", "--seed", "2"], /either --seed or --ms/],
      [["deal"], /name a deal with --seed S or --ms N/],
      [["play", "--rules", "nope", "--seed", "1"], /unknown rules "nope"/],
    ];
    const runs = await Promise.all(cases.map(([args]) => penguin(args)));
    runs.forEach((r, i) => {
      expect(r.code, cases[i]![0].join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(cases[i]![1]);
    });
  });
});

describe("penguin play", () => {
  it("plays a piped session: moves, ?, undo, quit, exit code 0, nothing on stderr", async () => {
    const r = await penguin(["play", "--ms", "1"], "1a\n?\nu\nu\n1a 2a\nu\nq\n");
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).not.toContain("\x1b[");
    expect(r.stdout).toContain("Flippers     a:3♦  b:--");
    expect(r.stdout).toContain("legal moves: 1b 25 2b 3b 4b 53 5b 6b 7b");
    expect(r.stdout).toContain("undid 1a");
    expect(r.stdout).toContain("nothing to undo");
    // 2a put its card in flipper b; u names the move as it was played.
    expect(r.stdout).toContain("Flippers     a:3♦  b:8♣");
    expect(r.stdout).toContain("undid 2b");
    expect(r.stdout.trimEnd().endsWith("bye")).toBe(true);
  });
  it("piped input stops at the first bad move: exit 2, the reason and what was not played on stderr", async () => {
    const r = await penguin(["play", "--ms", "1", "--no-color"], "1a 2a zz 3a\n4a\n");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'cannot read "zz": moves are <from><to>: from a column 1-7 or flipper a-g, to a column, h (foundation) or any flipper letter (the card goes to the first empty one); optional /k for k cards into an empty column (line 1); stopped after 2 moves; not played: 3a and any later input\n',
    );
    expect(r.stdout).toContain("moves played: 2");
    expect(r.stdout).not.toContain("moves played: 3");
    const illegal = await penguin(["play", "--ms", "1", "--no-color"], "1a\n2h\n");
    expect(illegal.code).toBe(2);
    expect(illegal.stderr).toContain(
      'illegal move "2h": that card is not the next one its foundation needs (line 2); stopped after 1 moves; later input was not read',
    );
  });
  it("at a terminal, a refused move is answered and the session goes on", async () => {
    const s = dealMs(resolveRules("penguin"), 1);
    const out: string[] = [];
    const err: string[] = [];
    async function* lines() {
      yield* ["1a", "2h", "xx", "u", "u", "ab", "7h 71", "q"];
    }
    const end = await playSession(s, lines(), (t) => out.push(t), false, undefined, {
      err: (t) => err.push(t),
    });
    expect(end).toEqual({ end: "quit" });
    expect(err[0]).toBe('illegal move "2h": that card is not the next one its foundation needs');
    expect(err[1]).toMatch(/^cannot read "xx"/);
    expect(err[2]).toBe('illegal move "ab": the source is empty');
    expect(err[3]).toBe(
      'illegal move "7h": that card is not the next one its foundation needs (not played: 71)',
    );
    expect(out).toContain("undid 1a");
    expect(out).toContain("nothing to undo");
  });
  it("ends cleanly when the input ends without q", async () => {
    const r = await penguin(["play", "--rules", "freecell", "--ms", "617", "--no-color"], "?\n");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("legal moves:");
  });
  it("announces a win (session driven in-process from a nearly won position)", async () => {
    const rules = resolveRules("penguin");
    const s = position(rules, "5", ["4S", "4H", "4D 3D"], ["4C"]);
    expect(s.found[suitOf("4S")]).toBe(12);
    const out: string[] = [];
    async function* lines() {
      yield "1h 2h";
      yield "3h 3h ah";
      yield "?";
    }
    await playSession(s, lines(), (t) => out.push(t), false);
    expect(out.at(-1)).toBe("won in 5 moves");
    expect(s.isWon()).toBe(true);
  });
});

function suitOf(card: string): number {
  return parseCard(card) & 3;
}

describe("Stalactites and penguin-beak-home through the CLI", () => {
  it("deal --json lists each rank foundation's pile; play shows foundation numbers; solve wins #1", async () => {
    const d = await penguin(["deal", "--rules", "stalactites", "--ms", "1", "--json"]);
    expect(d.code).toBe(0);
    const j = JSON.parse(d.stdout) as {
      foundations: Record<string, string | null>;
      piles: string[][];
      columns: string[][];
    };
    expect(j.foundations).toEqual({ "1": "6S", "2": "9C", "3": "2H", "4": "6H" });
    expect(j.piles).toEqual([["6S"], ["9C"], ["2H"], ["6H"]]);
    expect(j.columns.map((c) => c.length)).toEqual([6, 6, 6, 6, 6, 6, 6, 6]);
    const p = await penguin(
      ["play", "--rules", "stalactites", "--ms", "1", "--no-color"],
      "8h\n?\nq\n",
    );
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("legal moves: 1a 2a 3a 4a 5a 6h 6a 7a 8h 8h4 8a");
    // Piped input stops at an illegal move, with the reason on stderr.
    const bad = await penguin(
      ["play", "--rules", "stalactites", "--ms", "1", "--no-color"],
      "12\n",
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("these rules never build on a column");
    const s = await penguin(["solve", "--rules", "stalactites", "--ms", "1"]);
    expect(s.code).toBe(0);
    expect(s.stdout).toMatch(/^solved, \d+ moves/);
  });
  it("play under penguin-beak-home shows the base card a move sends home", async () => {
    const p = await penguin(
      ["play", "--rules", "penguin-beak-home", "--ms", "1", "--no-color"],
      "?\n3a\nq\n",
    );
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("3a+JH");
  });
});

describe("one vocabulary between deal, play and solve", () => {
  it("deal --board FILE writes a board that solve --board FILE reads back to the same verdict and line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "penguin-board-"));
    try {
      for (const [rules, deal] of [
        ["penguin", ["--seed", "7"]],
        ["freecell", ["--ms", "1"]],
      ] as const) {
        const file = join(dir, `${rules}.board`);
        const d = await penguin(["deal", "--rules", rules, ...deal, "--board", file]);
        expect(d.code, rules).toBe(0);
        expect(d.stdout).toBe(`wrote ${file}\n`);
        expect(readFileSync(file, "utf8").split("\n")[0]).toBe("penguin-board 1");
        const fromBoard = await penguin(["solve", "--rules", rules, "--board", file, "--json"]);
        const fromDeal = await penguin(["solve", "--rules", rules, ...deal, "--json"]);
        expect(fromBoard.stderr, rules).toBe("");
        const a = JSON.parse(fromBoard.stdout);
        const b = JSON.parse(fromDeal.stdout);
        expect(a.result, rules).toBe("solved");
        expect(a.moves, rules).toEqual(b.moves);
      }
      const both = await penguin([
        "deal",
        "--seed",
        "7",
        "--board",
        join(dir, "x.board"),
        "--json",
      ]);
      expect(both.code).toBe(2);
      expect(both.stderr).toBe("penguin: give either --json or --board FILE, not both\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("play names a flipper move as played (6c lands in a, undo says 6a); help and errors agree", async () => {
    const p = await penguin(["play", "--seed", "1", "--no-color"], "6c\nu\nhelp\nq\n");
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("undid 6a\n");
    expect(p.stdout).toContain("or any flipper letter (the card goes to the first empty one)");
    const bad = await penguin(["play", "--seed", "1", "--no-color"], "6x\n");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("or any flipper letter (the card goes to the first empty one)");
  });

  it("FreeCell's help and errors speak of free cells, not flippers", async () => {
    const p = await penguin(
      ["play", "--rules", "freecell", "--ms", "1", "--no-color"],
      "help\nq\n",
    );
    expect(p.stdout).toContain("or any free cell letter");
    expect(p.stdout).not.toMatch(/flipper/);
    const bad = await penguin(["play", "--rules", "freecell", "--ms", "1", "--no-color"], "9x\n");
    expect(bad.stderr).toContain("or free cell a-d");
    expect(bad.stderr).not.toMatch(/flipper/);
  });
});
