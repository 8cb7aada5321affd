/**
 * One module of error classes: every UsageError and IllegalMoveError is imported from
 * src/errors.ts, and an illegal move or action carries its reason.
 */
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { IllegalMoveError, UsageError } from "../../src/errors.js";
import { deal, parseMove, resolveRules } from "../../src/engine/index.js";
import { EpisodeRunner } from "../../src/eval/game-loop.js";
import type { Agent } from "../../src/agents/agent.js";
import { root } from "./helpers.js";

describe("errors module", () => {
  it("no source file defines or imports UsageError / IllegalMoveError anywhere but src/errors.ts", () => {
    const files = execFileSync("git", ["ls-files", "*.ts"], { cwd: root, encoding: "utf8" })
      .trim()
      .split("\n");
    const offenders: string[] = [];
    for (const f of files) {
      if (f === "src/errors.ts") continue;
      const text = readFileSync(join(root, f), "utf8");
      if (/class (UsageError|IllegalMoveError|IllegalActionError)\b/.test(text))
        offenders.push(`${f} defines one`);
      for (const m of text.matchAll(/import \{([^}]*)\} from "([^"]+)"/g))
        if (/\b(UsageError|IllegalMoveError)\b/.test(m[1]!) && !/(^|\/)errors\.js$/.test(m[2]!))
          offenders.push(`${f} imports from ${m[2]}`);
    }
    expect(offenders).toEqual([]);
  });

  it("an illegal typed move carries its reason; an agent's illegal action is the same class", () => {
    const rules = resolveRules("penguin");
    const s = deal(rules, 1);
    // Well-formed moves from each column to each other column: some are illegal in this deal.
    const errors: IllegalMoveError[] = [];
    for (let a = 1; a <= 7; a++)
      for (let b = 1; b <= 7; b++) {
        if (a === b) continue;
        try {
          parseMove(`${a}${b}`, s);
        } catch (e) {
          expect(e).toBeInstanceOf(IllegalMoveError);
          errors.push(e as IllegalMoveError);
        }
      }
    expect(errors.length).toBeGreaterThan(0);
    const err = errors[0]!;
    expect(err.message).toMatch(/^illegal move "\d\d": /);
    expect(err.message).toBe(`${err.message.slice(0, 19)}${err.reason}`);
    expect(err.reason).not.toContain("illegal move");
    expect((err as IllegalMoveError).reason.length).toBeGreaterThan(5);

    const cheat: Agent = {
      name: "cheat",
      needsObservation: false,
      reset: () => {},
      act: () => -1,
    } as unknown as Agent;
    expect(() => new EpisodeRunner(rules, cheat).play(s, 1)).toThrow(IllegalMoveError);
    try {
      new EpisodeRunner(rules, cheat).play(s, 1);
    } catch (e) {
      expect((e as IllegalMoveError).reason).toBe("action -1 is not legal in this position");
    }
    expect(new UsageError("x")).toBeInstanceOf(Error);
  });
});
