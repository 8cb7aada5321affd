/**
 * A Freecell Solver preset (such as looking-glass, `-l lg`) with some move types taken out of
 * every soft thread's move order, as plain command-line options. The preset is read from
 * Freecell Solver's own installed file, so the soft threads, seeds, steps and prelude stay
 * exactly its own.
 *
 * Why: in kings-only games (Eight Off, Seahaven Towers, Penguin) the looking-glass preset's
 * lines sometimes fill an empty column with a card other than a king (scripts/fcs/replay.ts
 * finds them); without its `j` moves they keep to the rules.
 */
import { readFileSync } from "node:fs";
import { UsageError } from "../../src/errors.js";

/** Where Freecell Solver installed its presets (a build under /opt/fcs6: FCS_PRESETS_DIR=/opt/fcs6/share/freecell-solver/presets/). */
export const PRESETS_DIR = process.env.FCS_PRESETS_DIR ?? "/usr/share/freecell-solver/presets/";

/** Shell-like words of the preset file: double quotes group, backslash-newline joins, # comments. */
function words(text: string): string[] {
  const out: string[] = [];
  const body = text
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((l) => !l.trimStart().startsWith("#"))
    .join(" ");
  for (const m of body.matchAll(/"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2]!);
  return out;
}

/**
 * A move order without the given move characters. Ordering specifiers after a group
 * (`=asw(1)`, `=rand()`) are kept as they are; a group left empty is dropped with its specifier.
 */
export function withoutMoves(order: string, drop: string): string {
  let out = "";
  for (let i = 0; i < order.length; i++) {
    const ch = order[i]!;
    if (ch === "=") {
      const close = order.indexOf(")", i);
      const spec = order.slice(i, close + 1);
      // An emptied group loses its ordering specifier too.
      if (out.endsWith("[]") || out.endsWith("()")) out = out.slice(0, -2);
      else out += spec;
      i = close;
    } else if (!drop.includes(ch)) out += ch;
  }
  return out.replace(/\[\]|\(\)/g, "");
}

/** A preset's options (`looking-glass`: the file looking-glass.sh) with the moves in `drop` removed from every move order. */
export function presetWithout(name: string, drop: string): string[] {
  const file = `${PRESETS_DIR + name}.sh`;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new UsageError(
      `cannot read Freecell Solver's preset ${file}; install freecell-solver-bin`,
    );
  }
  // The file is a range-solver command line: its first four words are the program and its range.
  const args = words(text).slice(4);
  for (let i = 0; i < args.length - 1; i++) {
    if (args[i] === "-to") args[i + 1] = withoutMoves(args[i + 1]!, drop);
    else if (args[i] === "-dto2" || args[i] === "-dto") {
      const [depth, order] = [
        args[i + 1]!.slice(0, args[i + 1]!.indexOf(",")),
        args[i + 1]!.slice(args[i + 1]!.indexOf(",") + 1),
      ];
      args[i + 1] = `${depth},${withoutMoves(order, drop)}`;
    }
  }
  return args;
}
