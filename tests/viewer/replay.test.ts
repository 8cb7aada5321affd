/** Replays without a browser: the losing-move search, labels read back, the HTML file, the CLI. */
import { spawn } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { applyMove, deal, resolveRules, rulesLabel, legalMoves } from "../../src/engine/index.js";
import { agentNames, createAgent } from "../../src/agents/registry.js";
import { GreedyAgent } from "../../src/agents/greedy.js";
import { solve } from "../../src/solver/search.js";
import { runEval } from "../../src/eval/run.js";
import { seedRange } from "../../src/eval/deals.js";
import { replayHtml } from "../../src/viewer/html.js";
import { parseAgentLabel, parseRulesLabel } from "../../src/viewer/labels.js";
import { readCsvRow } from "../../src/viewer/output.js";
import { buildReplay, findLosingMove, recordGame } from "../../src/viewer/record.js";
import { progressReporter } from "../../src/cli/progress.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const rules = resolveRules("penguin");
const tmp = mkdtempSync(join(tmpdir(), "penguin-viewer-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function penguin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ["bin/penguin.js", ...args], { cwd: root });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    p.on("error", reject);
    p.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("findLosingMove", () => {
  it("agrees with solving every position in turn (greedy's lost games that end with no move left)", () => {
    let checked = 0;
    for (const seed of [3, 5, 7, 8, 9, 10]) {
      const start = deal(rules, seed);
      const { moves } = recordGame(new GreedyAgent({}), start, seed);
      const s = start.clone();
      const verdicts = [solve(s).result];
      for (const m of moves) {
        applyMove(s, m);
        verdicts.push(solve(s).result);
      }
      if (s.isWon() || legalMoves(s).length > 0 || verdicts.includes("unknown")) continue;
      // Winnable positions form a prefix of the game (see src/viewer/record.ts).
      const first = verdicts.indexOf("unsolvable");
      expect(verdicts.slice(first).every((v) => v === "unsolvable")).toBe(true);
      expect(findLosingMove(start, moves)).toEqual(
        first === 0 ? { kind: "never" } : { kind: "move", index: first },
      );
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(2);
  });

  it("a won game is winnable all along; the solver's own line replays as a win", async () => {
    const d = await buildReplay({
      rules,
      deal: { kind: "seed", seed: 2 },
      agent: "greedy",
      solverLine: true,
    });
    expect(d.won).toBe(true);
    expect(d.cardsHome).toBe(52);
    expect(d.winnable).toEqual({ kind: "always" });
    expect(d.player).toMatch(/^solver line \(\d+ moves\)$/);
  });
});

describe("labels read back from a results row", () => {
  it("rebuilds agents whose names match the label", async () => {
    for (const [name, options] of [
      ["greedy", {}],
      [
        "greedy",
        {
          heuristic: "parlett",
          without: "keep-flippers-empty,mobility",
          weight: "build-in-suit=2",
        },
      ],
      ["lookahead", { depth: 2, width: 2 }],
      ["random", { "agent-seed": 5 }],
      ["solver", { "max-states": 1000 }],
    ] as const) {
      const label = (await createAgent(name, options, rules)).name;
      const spec = parseAgentLabel(label);
      expect((await createAgent(spec.agent, spec.options, rules)).name).toBe(label);
    }
    expect(parseAgentLabel("greedy(tuned,max-steps=300)")).toEqual({
      agent: "greedy",
      options: { heuristic: "tuned" },
      maxSteps: 300,
    });
  });
  it("rebuilds rules from rulesLabel", () => {
    for (const r of [
      resolveRules("penguin"),
      resolveRules("penguin", { cells: 3, emptyColumn: "any" }),
      resolveRules("freecell", { cells: 2 }),
      resolveRules("seahaven-towers"),
    ])
      expect(parseRulesLabel(rulesLabel(r))).toEqual(r);
    expect(() => parseRulesLabel("penguin[colour=red]")).toThrow(/keys are cells/);
  });
});

describe("the replay file", () => {
  it("is one self-contained page: data and script inline, nothing fetched", async () => {
    const d = await buildReplay({ rules, deal: { kind: "seed", seed: 3 }, agent: "greedy" });
    const html = await replayHtml(d);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<(link|img|iframe)\b/i);
    expect(html).not.toMatch(/\s(src|href)=/i);
    // The embedded data round-trips and cannot close its <script> element early.
    const json = /<script id="replay-data" type="application\/json">(.*?)<\/script>/s.exec(
      html,
    )![1]!;
    expect(JSON.parse(json)).toEqual(d);
    expect(html.length).toBeLessThan(60_000);
  });
  it("escapes what the user named (a string seed cannot inject markup)", async () => {
    const d = {
      ...(await buildReplay({
        rules,
        deal: { kind: "seed", seed: 3 },
        agent: "greedy",
        maxStates: 0,
      })),
      deal: "</script><b>x",
    };
    const html = await replayHtml(d);
    expect(html).not.toContain("</script><b>");
    expect(html).toContain("&lt;/script&gt;&lt;b&gt;x");
  });
});

describe("penguin replay", () => {
  it("--from a results row replays the same game as --seed", async () => {
    const csv = join(tmp, "r.csv");
    await runEval({
      agent: "greedy",
      agentOptions: { heuristic: "parlett" },
      rules: resolveRules("penguin", { cells: 6 }),
      deals: seedRange(20, 3),
      out: csv,
      timing: false,
    });
    expect(readCsvRow(csv, 2).deal).toBe("21");
    const a = await penguin([
      "replay",
      "--from",
      csv,
      "--row",
      "2",
      "--no-marker",
      "--out",
      join(tmp, "a.html"),
    ]);
    const b = await penguin([
      "replay",
      "--seed",
      "21",
      "--cells",
      "6",
      "--heuristic",
      "parlett",
      "--no-marker",
      "--out",
      join(tmp, "b.html"),
    ]);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    expect(a.stdout.split("\n")[0]).toMatch(
      /^seed 21, penguin\[cells=6\], greedy\(parlett\): (won|lost), \d+\/52 home, \d+ moves$/,
    );
    expect(a.stdout.split("\n")[0]).toBe(b.stdout.split("\n")[0]);
    expect(readFileSync(join(tmp, "a.html"), "utf8")).toBe(
      readFileSync(join(tmp, "b.html"), "utf8"),
    );
    const row = await penguin([
      "replay",
      "--from",
      csv,
      "--row",
      "9",
      "--out",
      join(tmp, "c.html"),
    ]);
    expect(row.code).toBe(2);
    expect(row.stderr).toBe(`penguin: ${csv} has 3 rows; --row must be 1 to 3\n`);
  });

  it("bad options: one line, exit 2, nothing written; a link writes its target", async () => {
    const target = join(tmp, "target.txt");
    writeFileSync(target, "keep");
    symlinkSync(target, join(tmp, "link.html"));
    for (const [args, msg] of [
      [
        ["replay", "--seed", "1", "--ms", "2", "--out", join(tmp, "x.html")],
        "penguin: give either --seed or --ms, not both",
      ],
      [["replay", "--row", "2", "--out", join(tmp, "x.html")], "penguin: --row needs --from FILE"],
      [
        ["replay", "--from", "nope.csv", "--row", "1", "--seed", "3", "--out", join(tmp, "x.html")],
        "penguin: --from takes the deal, rules and player from the row; drop --seed",
      ],
      [
        ["replay", "--seed", "1", "--max-states", "-1", "--out", join(tmp, "x.html")],
        "penguin: --max-states must be an integer from 1 to 268435456, got -1",
      ],
      [
        ["replay", "--seed", "1", "--agent", "nope", "--out", join(tmp, "x.html")],
        `penguin: unknown agent "nope"; known: ${agentNames().join(", ")}`,
      ],
      [
        ["replay", "--seed", "1", "--out", tmp],
        `penguin: --out ${tmp} is a directory: name a file inside it`,
      ],
      [["web", "--port", "70000"], "penguin: --port must be an integer from 0 to 65535, got 70000"],
    ] as const) {
      const r = await penguin([...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toBe(`${msg}\n`);
    }
    expect(readFileSync(target, "utf8")).toBe("keep");
    expect(() => readFileSync(join(tmp, "x.html"))).toThrow();
    // As every output of the harness: a symlink is followed and its target replaced whole.
    const ok = await penguin(["replay", "--seed", "1", "--out", join(tmp, "link.html")]);
    expect(ok.code).toBe(0);
    expect(lstatSync(join(tmp, "link.html")).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toMatch(/^<!doctype html>/i);
  });
});

describe("penguin replay --from and the agent flags", () => {
  it("refuses --agent with --from whatever its value (the default's included); names an unknown flag once", async () => {
    const csv = join(tmp, "agent.csv");
    await runEval({
      agent: "greedy",
      rules: resolveRules("penguin"),
      deals: seedRange(5, 1),
      out: csv,
      timing: false,
    });
    for (const agent of ["greedy", "random"]) {
      const r = await penguin([
        "replay",
        "--from",
        csv,
        "--row",
        "1",
        "--agent",
        agent,
        "--out",
        join(tmp, "no.html"),
      ]);
      expect(r.code, agent).toBe(2);
      expect(r.stderr, agent).toBe(
        "penguin: --from takes the deal, rules and player from the row; drop --agent\n",
      );
    }
    expect(existsSync(join(tmp, "no.html"))).toBe(false);
    const typo = await penguin([
      "replay",
      "--seed",
      "1",
      "--max-state",
      "5",
      "--out",
      join(tmp, "no.html"),
    ]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("penguin: Unknown argument: max-state\n");
  });
});

describe("penguin eval --html", () => {
  it("writes one replay per lost deal, or per deal with --html-all, each the game of its row", async () => {
    const csv = join(tmp, "e.csv");
    const lost = join(tmp, "lost");
    const r = await penguin([
      "eval",
      "--deals",
      "4",
      "--seed",
      "1",
      "--no-timing",
      "--out",
      csv,
      "--html",
      lost,
    ]);
    expect(r.code).toBe(0);
    const rows = readFileSync(csv, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(","));
    const lostDeals = rows.filter((x) => x[3] === "false").map((x) => x[0]);
    expect(lostDeals.length).toBeGreaterThan(0);
    expect(readdirSync(lost).sort()).toEqual(lostDeals.map((d) => `${d}.html`).sort());
    expect(r.stderr).toContain(`wrote ${lostDeals.length} replays (lost deals) to ${lost}`);
    for (const row of rows.filter((x) => x[3] === "false")) {
      const html = readFileSync(join(lost, `${row[0]}.html`), "utf8");
      expect(html).toContain(`"player":"greedy(tuned)"`);
      expect(html).toContain(`"cardsHome":${row[4]},`);
    }
    const all = join(tmp, "all");
    const r2 = await penguin([
      "eval",
      "--ms-from",
      "1",
      "--ms-to",
      "2",
      "--html",
      all,
      "--html-all",
    ]);
    expect(r2.code).toBe(0);
    expect(readdirSync(all).sort()).toEqual(["ms-1.html", "ms-2.html"]);
  });
});

describe("progress on a terminal", () => {
  it("redraws one bar in place, at most every 100 ms, and ends it with a newline", () => {
    const lines: string[] = [];
    let t = 0;
    const p = progressReporter({
      stream: { isTTY: true, write: (x) => lines.push(x) },
      now: () => t,
    });
    for (let i = 1; i <= 10; i++) {
      t = i * 60; // 60 ms a deal: every other deal redraws
      p(i % 2 === 0, i, 10);
    }
    p.stop();
    expect(lines).toEqual([
      `\r[${"#".repeat(3)}${" ".repeat(27)}] 1/10 deals, 0 wins in this run, 0 s`,
      `\r[${"#".repeat(9)}${" ".repeat(21)}] 3/10 deals, 1 wins in this run, 0 s`,
      `\r[${"#".repeat(15)}${" ".repeat(15)}] 5/10 deals, 2 wins in this run, 0 s`,
      `\r[${"#".repeat(21)}${" ".repeat(9)}] 7/10 deals, 3 wins in this run, 0 s`,
      `\r[${"#".repeat(27)}${" ".repeat(3)}] 9/10 deals, 4 wins in this run, 1 s`,
      `\r[${"#".repeat(30)}] 10/10 deals, 5 wins in this run, 1 s`,
      "\n",
    ]);
  });
});
