/**
 * Every option checked the same way in every command and script: a single-valued option given
 * twice, an option without its value, a number out of its range, a boolean other than
 * true/false. One line, exit 2, before any file is touched; control characters from input
 * files are escaped in messages.
 */
import { afterAll, describe, expect, it } from "vitest";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkRawArgs } from "../../src/cli/common.js";
import { UsageError } from "../../src/errors.js";
import { oneLine, penguin, script, tempDir } from "./helpers.js";

const { dir, done } = tempDir("options");
afterAll(done);

/** No byte below 0x20 but the final newline: nothing raw reaches the terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
const noControl = (s: string): boolean => !/[\u0000-\u0009\u000b-\u001f\u007f]/.test(s);

describe("penguin commands", () => {
  it("repeated, empty, non-numeric, out-of-range and non-boolean options: exit 2, one line, nothing written", async () => {
    const out = join(dir, "never.csv");
    const cases: [string[], RegExp][] = [
      [["deal", "--seed", "1", "--seed", "2"], /--seed is given more than once; give it once/],
      [["deal", "--seed"], /--seed needs a value/],
      [["deal", "--ms", "x"], /--ms must be a number, got "x"/],
      [["deal", "--ms", "0"], /--ms must be an integer from 1 to 2147483647, got 0/],
      [["deal", "--seed", "1", "--cells", "9"], /--cells must be an integer from 0 to 8, got 9/],
      [["deal", "--seed", "1", "--json=maybe"], /--json is true or false, got "maybe"/],
      [["eval", "--deals", "3", "--out", out, "--out", out], /--out is given more than once/],
      [["eval", "--deals", "3", "--out="], /--out needs a value/],
      [
        ["eval", "--deals", "3", "--workers", "0", "--out", out],
        /--workers must be an integer from 1 to 256, got 0/,
      ],
      [
        ["eval", "--deals", "3", "--max-steps", "2.5", "--out", out],
        /--max-steps must be an integer from 1 to 1000000, got 2.5/,
      ],
      [
        [
          "eval",
          "--agent",
          "policy",
          "--model",
          join(dir, "none"),
          "--agent-opt",
          "sample=maybe",
          "--deals",
          "3",
          "--out",
          out,
        ],
        /sample must be true or false, got "maybe"/,
      ],
      [
        ["eval", "--deals", "3", "--timing=perhaps", "--out", out],
        /--timing is true or false, got "perhaps"/,
      ],
      [
        ["solve", "--seed", "1", "--max-states", "0"],
        /--max-states must be an integer from 1 to 268435456, got 0/,
      ],
      [
        ["solve", "--seed", "1", "--timeout-ms", "-5"],
        /--timeout-ms must be a number from 1 to 86400000, got -5/,
      ],
      [["merge", "a.csv", "--out", out, "--out", out], /--out is given more than once/],
      [
        ["train", "--seed", "1", "--seed", "2", "--out", join(dir, "run")],
        /--seed is given more than once/,
      ],
    ];
    const runs = await Promise.all(cases.map(([args]) => penguin(args)));
    for (const [i, [args, msg]] of cases.entries()) {
      expect(runs[i]!.code, args.join(" ")).toBe(2);
      expect(oneLine(runs[i]!), args.join(" ")).toMatch(msg);
    }
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(dir, "run"))).toBe(false);
  });

  it("checkRawArgs (library): array options may repeat, a negative number is a value, --no-x is a boolean", () => {
    const kinds = {
      boolean: ["timing", "json"],
      number: ["seed"],
      string: ["out", "without"],
      array: ["without"],
    };
    expect(() =>
      checkRawArgs(
        ["--without", "a", "--without", "b", "--seed", "-3", "--no-timing", "--json", "false"],
        kinds,
      ),
    ).not.toThrow();
    expect(() => checkRawArgs(["--no-timing", "--timing"], kinds)).toThrow(
      /--timing is given more than once/,
    );
    expect(() => checkRawArgs(["--no-timing=1"], kinds)).toThrow(UsageError);
    expect(() => checkRawArgs(["--seed", "--json"], kinds)).toThrow(/--seed needs a value/);
  });

  it("control characters from an input file are escaped in the message", async () => {
    const board = join(dir, "evil.board");
    writeFileSync(board, "KD \u001b[2J\u001b[31mQS\r\n");
    const csv = join(dir, "evil.csv");
    writeFileSync(
      csv,
      "deal,rules,agent,won\n1,penguin,\u001b]0;pwned\u0007x,true\n2,penguin,y,true\n",
    );
    const ok = join(dir, "ok.csv");
    writeFileSync(ok, "deal,rules,agent,won\n1,penguin,x,true\n2,penguin,x,true\n");
    const [b, c] = await Promise.all([
      penguin(["solve", "--rules", "freecell", "--board", board]),
      penguin(["compare", ok, csv]),
    ]);
    expect([b.code, c.code]).toEqual([2, 2]);
    expect(oneLine(b)).toContain('bad card "\\x1b[2J\\x1b[31mQS');
    expect(oneLine(c)).toContain("\\x1b]0;pwned\\x07x");
    expect(noControl(b.stderr) && noControl(c.stderr)).toBe(true);
  });
});

describe("scripts get the same checking", () => {
  it("check-min-cells and fcs-side-by-side refuse bad options in one line (no stack trace); crosscheck --help prints help", async () => {
    const runs = await Promise.all([
      script("scripts/check-min-cells.ts", ["--sample", "0"]),
      script("scripts/check-min-cells.ts", ["--from", "9", "--to", "3"]),
      script("experiments/crosscheck.ts", ["--help"]),
      script("experiments/crosscheck.ts", ["--dir", join(dir, "missing")]),
      script("scripts/fcs-side-by-side.ts", ["--sets", "penguin,klondike"]),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 0, 2, 2]);
    expect(oneLine(runs[0]!)).toMatch(/--sample must be an integer from 1 to 32000/);
    expect(oneLine(runs[1]!)).toMatch(/--from \(9\) must not be above --to \(3\)/);
    expect(runs[2]!.stdout).toMatch(
      /^usage: npx tsx experiments\/crosscheck\.ts \[options\]\n {2}--dir/,
    );
    expect(runs[2]!.stdout).not.toMatch(/files, .* rows/);
    expect(oneLine(runs[3]!)).toMatch(/cannot read the folder --dir/);
    expect(oneLine(runs[4]!)).toMatch(
      /^fcs-side-by-side: --sets: unknown "klondike"; allowed: freecell/,
    );
    for (const r of runs) expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
