/**
 * Checks the solver against tests/data/freecell-ms32000-min-cells.txt on any sample of deals:
 * each sampled deal must be solved with its listed number of free cells and proved unsolvable
 * with one fewer. Prints one line per deal and the agreement.
 *
 *   npx tsx scripts/check-min-cells.ts --from 1 --to 32000 --sample 200 --seed 1
 *   npx tsx scripts/check-min-cells.ts --from 1 --to 1000 --sample 1000 --max-states 5000000
 *
 * Args: --from, --to (deal range, default 1..32000), --sample (deals drawn, default 100; the
 * whole range when larger), --seed (sampling seed, default 1), --max-states (per solve,
 * default 2000000), --timeout-ms (per solve, default none), --quiet (only undecided and
 * disagreeing deals, and the summary).
 * Exit code 1 when any deal contradicts the list.
 */
import { fileURLToPath } from "node:url";
import { UsageError } from "../src/errors.js";
import { checkMinCells, parseMinCells, sampleDeals } from "../src/solver/min-cells.js";
import { MAX_STATES_LIMIT } from "../src/solver/search.js";
import { MiB, readTextFile } from "../src/util/read.js";
import { exitOnUsageError, helpText, parseOptions } from "../experiments/lib/options.js";

const OPTIONS = {
  from: { type: "int", default: 1, min: 1, max: 32000, help: "first deal of the range" },
  to: { type: "int", default: 32000, min: 1, max: 32000, help: "last deal of the range" },
  sample: {
    type: "int",
    default: 100,
    min: 1,
    max: 32000,
    help: "deals drawn (the whole range when larger)",
  },
  seed: { type: "int", default: 1, min: 0, max: 2 ** 31 - 1, help: "sampling seed" },
  "max-states": {
    type: "int",
    default: 2_000_000,
    min: 1,
    max: MAX_STATES_LIMIT,
    help: "solver budget per solve",
  },
  "timeout-ms": {
    type: "int",
    default: 0,
    min: 0,
    max: 86_400_000,
    help: "wall-clock budget per solve (0 = none)",
  },
  quiet: { type: "flag", help: "only undecided and disagreeing deals, and the summary" },
} as const;

await exitOnUsageError("check-min-cells", async () => {
  const args = parseOptions("check-min-cells", OPTIONS, process.argv.slice(2));
  if (args.help) {
    process.stdout.write(`${helpText("scripts/check-min-cells", OPTIONS)}\n`);
    return;
  }
  if (args.from > args.to)
    throw new UsageError(`--from (${args.from}) must not be above --to (${args.to})`);
  const dataPath = fileURLToPath(
    new URL("../tests/data/freecell-ms32000-min-cells.txt", import.meta.url),
  );
  const minCells = parseMinCells(
    readTextFile(dataPath, { maxBytes: 4 * MiB, what: "min-cells list" }),
  );
  const deals = sampleDeals(args.from, args.to, args.sample, args.seed);
  const t0 = performance.now();
  let agree = 0;
  let disagree = 0;
  let unknown = 0;
  for (const deal of deals) {
    const r = checkMinCells(
      deal,
      minCells.get(deal)!,
      args["max-states"],
      args["timeout-ms"] || undefined,
    );
    if (r.agrees === true) agree++;
    else if (r.agrees === false) disagree++;
    else unknown++;
    if (!args.quiet || r.agrees !== true)
      console.log(
        `#${deal} cells=${r.cells}: with ${r.cells} ${r.withListed}` +
          (r.withFewer ? `, with ${r.cells - 1} ${r.withFewer}` : "") +
          ` (${r.states} states, ${r.ms} ms)` +
          (r.agrees === false ? "  DISAGREES" : r.agrees === undefined ? "  undecided" : ""),
      );
  }
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(
    `deals ${args.from}-${args.to}, sample ${deals.length} (seed ${args.seed}): agree ${agree}, disagree ${disagree}, undecided ${unknown}; ${secs} s`,
  );
  process.exitCode = disagree > 0 ? 1 : 0;
});
