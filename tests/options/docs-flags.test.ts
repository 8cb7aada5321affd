/**
 * The pages show only flags the commands take: every `penguin …` and `npx tsx experiments/….ts`
 * command in a code block or an inline code span of README.md, docs/*.md, python/README.md and
 * results/**\/README.md uses flags that command declares (retired names are hidden aliases, not
 * documented ones), and a span that shows a bare flag (`--max-states`) is not a retired name. The generated docs/cli*.md pages are checked by registry.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { allCommands } from "../../scripts/cli-flags.js";
import { RENAMED } from "../../src/options/registry.js";
import { root } from "../hardening/helpers.js";

const commands = allCommands();
const flagsOf = new Map(commands.map((c) => [c.name, new Set(c.flags.map((f) => f.flag))]));
const everyFlag = new Set(commands.flatMap((c) => c.flags.map((f) => f.flag)));
const RETIRED = new Set(Object.values(RENAMED).flatMap((r) => Object.keys(r)));
const TRAIN_ALGOS = commands
  .filter((c) => c.name.startsWith("penguin train "))
  .map((c) => c.name.slice("penguin train ".length));

/** The pages to check. */
function pages(): string[] {
  const out = ["README.md", "python/README.md"];
  for (const f of readdirSync(join(root, "docs")))
    if (f.endsWith(".md") && !f.startsWith("cli")) out.push(`docs/${f}`);
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true }))
      if (e.isDirectory()) walk(`${dir}/${e.name}`);
      else if (e.name === "README.md") out.push(`${dir}/${e.name}`);
  };
  walk("results");
  return out.filter((f) => existsSync(join(root, f)));
}

/** Fenced blocks (continued lines joined) and inline code spans of a Markdown text. */
function codeOf(text: string): string[] {
  const out: string[] = [];
  const fences = /^```[^\n]*\n([\s\S]*?)^```/gm;
  for (const m of text.matchAll(fences)) out.push(...m[1]!.replace(/\\\n\s*/g, " ").split("\n"));
  for (const m of text.replace(fences, "").matchAll(/`([^`\n]+)`/g)) out.push(m[1]!);
  return out;
}

/**
 * The flags of one piece of code that a command of ours does not take: "where: --flag" each.
 * `penguin CMD …` (also `npx penguin`, `node bin/penguin.js`) and `experiments/NAME.ts …` are
 * checked against that command, up to the next `|`, `&&`, `;` or `#`.
 */
function unknownFlags(code: string): string[] {
  const bad: string[] = [];
  const invocation =
    /(?:^|[\s(])(?:(?:npx |npm run )?penguin|bin\/penguin\.js)(?: --)? ([a-z]+)((?: [a-z]+)?)|experiments\/([\w-]+)\.ts/g;
  let found = false;
  for (const m of code.matchAll(invocation)) {
    found = true;
    let name: string;
    if (m[3] !== undefined) name = `experiments/${m[3]}.ts`;
    else if (m[1] === "train") {
      const algo = m[2]!.trim();
      name = TRAIN_ALGOS.includes(algo) ? `penguin train ${algo}` : "penguin train";
    } else name = `penguin ${m[1]}`;
    const rest = code.slice(m.index! + m[0].length).split(/\||&&|;|#/)[0]!;
    const known =
      name === "penguin train"
        ? new Set(TRAIN_ALGOS.flatMap((a) => [...flagsOf.get(`penguin train ${a}`)!]))
        : flagsOf.get(name);
    if (!known) {
      // A script outside the registry (experiments/crosscheck.ts) parses its own few flags.
      if (!(m[3] !== undefined && existsSync(join(root, name))))
        bad.push(`${name}: no such command`);
      continue;
    }
    for (const f of rest.matchAll(/(?<![\w-])--([a-z][\w-]*)/g)) {
      const flag = f[1]!;
      const plain = flag.startsWith("no-") ? flag.slice(3) : flag;
      if (!known.has(flag) && !known.has(plain) && flag !== "help") bad.push(`${name}: --${flag}`);
    }
  }
  // A span that is a flag by itself, as prose names one: not a retired name (other tools' flags,
  // such as Freecell Solver's --game, are theirs).
  const bare = /^--([a-z][\w-]*)/.exec(code.trim());
  if (!found && bare && RETIRED.has(bare[1]!) && !everyFlag.has(bare[1]!)) bad.push(`--${bare[1]}`);
  return bad;
}

describe("flags on the pages", () => {
  it("every command shown uses flags it declares, and every flag shown alone exists", () => {
    const bad: string[] = [];
    for (const page of pages())
      for (const code of codeOf(readFileSync(join(root, page), "utf8")))
        for (const b of unknownFlags(code)) bad.push(`${page}: ${b}   (in: ${code.trim()})`);
    expect(bad).toEqual([]);
  });

  it("the check catches retired names, flags of another command and unknown commands", () => {
    for (const [cmd, renames] of Object.entries(RENAMED)) {
      const shown = cmd === "experiments" ? "npx tsx experiments/flippers.ts" : `penguin ${cmd}`;
      for (const old of Object.keys(renames))
        expect(unknownFlags(`${shown} --${old} 1`), `${cmd} --${old}`).toEqual([
          `${cmd === "experiments" ? "experiments/flippers.ts" : `penguin ${cmd}`}: --${old}`,
        ]);
    }
    expect(unknownFlags("penguin solve --seed 1 --workers 2")).toEqual([
      "penguin solve: --workers",
    ]);
    expect(unknownFlags("node bin/penguin.js eval --no-timing --deals 5 | head")).toEqual([]);
    expect(unknownFlags("penguin frobnicate --seed 1")).toEqual([
      "penguin frobnicate: no such command",
    ]);
    expect(unknownFlags("--safety-lr 2e-4")).toEqual(["--safety-lr"]);
    expect(unknownFlags("--max-states N")).toEqual([]);
    // Other tools' flags are theirs.
    expect(unknownFlags("npm ci --ignore-scripts")).toEqual([]);
    expect(unknownFlags("--game bakers_game")).toEqual([]);
  });

  it("finds the pages and their commands", () => {
    const all = pages();
    expect(all).toContain("README.md");
    expect(all).toContain("docs/learn.md");
    expect(all.some((p) => p.startsWith("results/") && p !== "results/README.md")).toBe(true);
    const shown = all.flatMap((p) => codeOf(readFileSync(join(root, p), "utf8")));
    expect(shown.filter((c) => /penguin (eval|train|dataset)/.test(c)).length).toBeGreaterThan(20);
    expect(relative(root, join(root, "docs"))).toBe("docs");
  });
});
