/**
 * `penguin deal`: show a deal, or print it as JSON for other tools.
 *
 *   penguin deal --rules penguin --ms 1
 *   penguin deal --rules freecell --seed 42 --json
 *   penguin deal --rules penguin --seed 7 --board 7.board && penguin solve --board 7.board
 *
 * JSON: {"rules": "<preset>", "base": "<rank char>", "columns": [["JD","KD",...], ...] (deepest
 * card first), "cells": ["QS", null, ...], "foundations": {"C": "<top card or null>", ...}}.
 * Under rank foundations (Stalactites) "foundations" is keyed "1"-"4" and "piles" lists each
 * foundation's cards, first card first.
 */
import type { CommandModule } from "yargs";
import { cardToString, NO_CARD, RANKS, SUITS } from "../engine/card.js";
import { renderBoard, useColor } from "../engine/render.js";
import { formatBoard } from "../engine/board.js";
import { UsageError } from "../errors.js";
import { writeOutput } from "../util/output.js";
import type { State } from "../engine/state.js";
import { flag } from "../options/registry.js";
import {
  dealFromArgs,
  rulesFromArgs,
  withDealOptions,
  withRuleOptions,
  type DealArgs,
  type RuleArgs,
} from "./common.js";

export interface DealJson {
  rules: string;
  base: string;
  columns: string[][];
  cells: (string | null)[];
  /** Suit letters C D H S, or "1"-"4" under rank foundations. */
  foundations: Record<string, string | null>;
  piles?: string[][];
}

/** The JSON form of a position (also used by tests and other tools). */
function dealJson(s: State): DealJson {
  const top = (f: number): string | null => (s.found[f] ? cardToString(s.foundationTop(f)) : null);
  const rank = s.tables.rankHome;
  const foundations = Object.fromEntries(
    [...SUITS].map((ch, f) => [rank ? String(f + 1) : ch, top(f)]),
  );
  const piles = rank
    ? [0, 1, 2, 3].map((f) =>
        Array.from(s.pile.subarray(f * 13, f * 13 + s.found[f]!), cardToString),
      )
    : undefined;
  return {
    rules: s.rules.preset,
    base: RANKS[s.base]!,
    columns: Array.from({ length: s.nColumns }, (_, c) => s.column(c).map(cardToString)),
    cells: Array.from(s.cells.subarray(0, s.nCells), (c) =>
      c === NO_CARD ? null : cardToString(c),
    ),
    foundations,
    ...(piles ? { piles } : {}),
  };
}

interface Args extends RuleArgs, DealArgs {
  json?: boolean;
  board?: string;
  color?: boolean;
}

export const dealCommand: CommandModule<object, Args> = {
  command: "deal",
  describe: "show a deal (--seed S or --ms N) as a board or as JSON",
  builder: (y) =>
    withDealOptions(withRuleOptions(y))
      .option("json", flag("json", { default: false, detail: "the deal as one object" }))
      .option("board", flag("board", { detail: "write the deal to this file" }))
      .option("color", flag("color")) as never,
  handler: (a) => {
    const rules = rulesFromArgs(a);
    const s = dealFromArgs(rules, a)!;
    if (a.json && a.board !== undefined)
      throw new UsageError("give either --json or --board FILE, not both");
    if (a.board !== undefined) {
      writeOutput(a.board, formatBoard(s), { what: "board file" });
      process.stdout.write(`wrote ${a.board}\n`);
    } else if (a.json) process.stdout.write(`${JSON.stringify(dealJson(s))}\n`);
    else process.stdout.write(`${renderBoard(s, { color: useColor(a.color) })}\n`);
  },
};
