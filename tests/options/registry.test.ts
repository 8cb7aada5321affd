/**
 * One vocabulary: every flag that names an idea of the options registry carries the registry's
 * meaning, type and allowed values in every command, every `penguin train` algorithm and every
 * experiment script; a flag two commands share means the same in both; retired names are gone
 * from every declaration; and docs/cli.md is exactly what scripts/cli-docs.ts generates.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allCommands, type FlagInfo } from "../../scripts/cli-flags.js";
import { cliDocs } from "../../scripts/cli-docs.js";
import {
  CONCEPTS,
  conceptRange,
  RENAMED,
  renameFlags,
  type Concept,
} from "../../src/options/registry.js";
import type { OptionSpec } from "../../src/options/spec.js";
import { root } from "../hardening/helpers.js";

const cmds = allCommands();

/** The yargs type a concept must have (scripts: the script parser's kinds for it). */
function typesOf(c: OptionSpec): string[] {
  switch (c.type) {
    case undefined:
    case "number":
      return c.int ? ["number", "int", "int-list"] : ["number"];
    case "seed":
      return ["string", "int"];
    case "boolean":
      return ["boolean", "flag"];
    case "string":
      return c.array ? ["array"] : ["string", "choice", "list"];
    default:
      return [c.type];
  }
}

/** What is wrong with one declaration of a registry flag, or undefined. */
function misfit(f: FlagInfo): string | undefined {
  const c = CONCEPTS[f.flag as Concept] as OptionSpec;
  if (!typesOf(c).includes(f.type)) return `type ${f.type}, registry ${c.type ?? "number"}`;
  if (!f.describe.startsWith(c.describe)) return `meaning "${f.describe}"`;
  const range = conceptRange(f.flag as Concept);
  if (range !== undefined && c.type !== "seed") {
    if (f.min !== undefined || f.max !== undefined) {
      if (f.min !== (c as { min: number }).min || f.max !== (c as { max: number }).max)
        return `range ${f.min}..${f.max}`;
    } else if (!f.describe.endsWith(`(${range})`)) return `range not "${range}"`;
  }
  return undefined;
}

describe("the options registry", () => {
  it("finds the commands: 12 penguin commands (train once per algorithm) and 7 scripts", () => {
    expect(cmds.filter((c) => c.name.startsWith("penguin ")).length).toBe(12);
    expect(cmds.filter((c) => c.name.startsWith("experiments/")).length).toBe(7);
    expect(cmds.find((c) => c.name === "penguin solve")!.flags.map((f) => f.flag)).toContain(
      "max-states",
    );
  });

  it("every declaration of a registry flag has the registry's type, meaning and range", () => {
    const bad: string[] = [];
    for (const c of cmds)
      for (const f of c.flags)
        if (f.flag in CONCEPTS) {
          const why = misfit(f);
          if (why) bad.push(`${c.name} --${f.flag}: ${why}`);
        }
    expect(bad).toEqual([]);
  });

  it("a flag outside the registry that two commands share has one type and meaning", () => {
    const seen = new Map<string, { cmd: string; f: FlagInfo }>();
    const bad: string[] = [];
    for (const c of cmds)
      for (const f of c.flags) {
        if (f.flag in CONCEPTS) continue;
        const first = seen.get(f.flag);
        if (!first) seen.set(f.flag, { cmd: c.name, f });
        else if (first.f.type !== f.type || first.f.describe !== f.describe)
          bad.push(`--${f.flag}: ${first.cmd} and ${c.name} declare it differently`);
      }
    expect(bad).toEqual([]);
  });

  it("the checks catch a command that declares a shared idea its own way", () => {
    const wrong: FlagInfo = {
      flag: "max-states",
      type: "number",
      describe: "solver budget per deal (an integer from 1000 to 100000000)",
    };
    expect(misfit(wrong)).toMatch(/meaning/);
    const c = CONCEPTS["max-states"];
    expect(misfit({ ...wrong, describe: `${c.describe} (an integer from 1 to 8)` })).toMatch(
      /range/,
    );
    expect(misfit({ ...wrong, type: "int", describe: c.describe, min: 1000, max: c.max })).toMatch(
      /range/,
    );
  });

  it("no command declares a retired flag name; each rename leads to a declared flag", () => {
    const bad: string[] = [];
    for (const [scope, renames] of Object.entries(RENAMED)) {
      const inScope = cmds.filter((c) =>
        scope === "experiments" ? c.name.startsWith("experiments/") : c.name === `penguin ${scope}`,
      );
      expect(inScope.length, scope).toBeGreaterThan(0);
      for (const c of inScope)
        for (const [old, now] of Object.entries(renames)) {
          const flags = c.flags.map((f) => f.flag);
          if (flags.includes(old)) bad.push(`${c.name} still declares --${old}`);
          // Every script takes --agent except those without players; the rest must have `now`.
          if (!flags.includes(now) && !(scope === "experiments"))
            bad.push(`${c.name}: --${old} leads to --${now}, which it does not take`);
        }
    }
    expect(bad).toEqual([]);
  });

  it("the one-vocabulary names: --seed is a deal, --weights-seed trains, one --lr, one --agent", () => {
    const flagsOf = (n: string): string[] =>
      cmds.find((c) => c.name === n)!.flags.map((f) => f.flag);
    for (const n of ["penguin train ppo", "penguin train es", "penguin train safety"]) {
      expect(flagsOf(n), n).toContain("weights-seed");
      expect(flagsOf(n), n).toContain("lr");
      expect(
        flagsOf(n).filter((f) => /-lr$|^lr-/.test(f) && f !== "lr-schedule" && f !== "ppo-lr"),
        n,
      ).toEqual([]);
    }
    for (const n of [
      "penguin eval",
      "penguin replay",
      "penguin dataset",
      "experiments/flippers.ts",
    ])
      expect(flagsOf(n), n).toContain("agent");
    for (const c of cmds)
      expect(
        c.flags.map((f) => f.flag),
        c.name,
      ).not.toContain("players");
  });

  it("renameFlags rewrites old names (also --no-x and --x=v) with one notice each", () => {
    const notes: string[] = [];
    const out = renameFlags(
      ["dataset", "--players=safe", "--deal-start", "20000", "--quiet", "--", "--players"],
      RENAMED.dataset,
      (l) => notes.push(l),
    );
    expect(out).toEqual([
      "dataset",
      "--agent=safe",
      "--seed",
      "20000",
      "--quiet",
      "--",
      "--players",
    ]);
    expect(notes).toEqual([
      "--players is now --agent; the old name goes in the next version",
      "--deal-start is now --seed; the old name goes in the next version",
    ]);
  });

  it("docs/cli.md and docs/cli-experiments.md are the generated pages (npm run docs:cli) and list every flag of every command", () => {
    const pages = cliDocs();
    for (const [path, text] of Object.entries(pages))
      expect(readFileSync(join(root, path), "utf8"), path).toBe(text);
    for (const c of cmds) {
      const doc = pages[c.name.startsWith("penguin ") ? "docs/cli.md" : "docs/cli-experiments.md"]!;
      for (const f of c.flags) expect(doc, `${c.name} --${f.flag}`).toContain(`\`--${f.flag}\``);
    }
  });
});
