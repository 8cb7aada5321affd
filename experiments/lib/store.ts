/**
 * The per-deal CSV of an experiment, written through the project's resumable CSV (ResumableCsv,
 * src/eval/csv.ts: lock, whole-line appends, a killed writer's half line dropped on reopening).
 * An experiment file holds many conditions per deal, so on reopening every existing row is also
 * checked against the task this run would put at that position (deal, rules, player, condition)
 * and its outcome columns are checked (outcome, cards home, counts): a file written with other
 * settings is refused untouched, never extended.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { UsageError } from "../../src/errors.js";
import { ResumableCsv } from "../../src/eval/csv.js";
import { printable } from "../../src/util/text.js";

const COUNT = /^(0|[1-9]\d{0,14})$/;

/** Why the outcome columns of a row (…, base, outcome, cards_home, moves, states) are wrong. */
function outcomeProblem(f: readonly string[]): string | undefined {
  const [base, outcome, home, moves, states] = f.slice(-5);
  if (!/^[A2-9TJQK]$/.test(base!)) return `base is ${JSON.stringify(base)}, expected a rank letter`;
  if (outcome !== "won" && outcome !== "lost" && outcome !== "unknown")
    return `outcome is ${JSON.stringify(outcome)}, expected won, lost or unknown`;
  if (!COUNT.test(home!) || Number(home) > 52)
    return `cards_home is ${JSON.stringify(home)}, expected an integer from 0 to 52`;
  if (outcome === "won" && home !== "52") return `outcome is won with ${home} cards home`;
  if (!COUNT.test(moves!)) return `moves is ${JSON.stringify(moves)}, expected a count`;
  if (!COUNT.test(states!)) return `states is ${JSON.stringify(states)}, expected a count`;
  return undefined;
}

/**
 * Opens or creates `path` for a run whose task i must produce a row whose first `keyColumns`
 * fields equal `expectedKey(i)`; `total` is the run's number of tasks. Each existing row is
 * handed to `onExisting` (in order) once it has passed its check; `rows` of the result counts
 * them (tasks 0 … rows−1 are finished).
 */
export function openStore(
  path: string,
  header: readonly string[],
  keyColumns: number,
  total: number,
  expectedKey: (i: number) => readonly string[],
  onExisting: (fields: readonly string[]) => void,
): ResumableCsv {
  const shown = printable(path);
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (e) {
    throw new UsageError(
      `cannot write ${shown}: ${(e as { code?: string }).code ?? (e as Error).message}`,
    );
  }
  let rows = 0;
  return ResumableCsv.open({
    path,
    columns: header,
    what: "an experiment",
    onRow: (_, line, fields) => {
      if (rows >= total)
        throw new UsageError(
          `${shown} already holds more than this run's ${total} rows: written with other settings (--deals?); use another --out`,
        );
      const want = expectedKey(rows);
      if (want.some((w, k) => w !== fields[k]))
        throw new UsageError(
          `${shown} row ${rows + 1} is [${fields.slice(0, keyColumns).join(" ")}] where this run expects [${want.join(" ")}]: written with other settings; use another --out`,
        );
      const problem = outcomeProblem(fields);
      if (problem) throw new UsageError(`${shown} line ${line}: ${problem}; use another --out`);
      onExisting(fields);
      rows++;
    },
  });
}
