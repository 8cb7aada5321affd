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
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { checkMinCells, parseMinCells, sampleDeals } from "../src/solver/min-cells.js";

const args = await yargs(hideBin(process.argv))
  .option("from", { type: "number", default: 1 })
  .option("to", { type: "number", default: 32000 })
  .option("sample", { type: "number", default: 100 })
  .option("seed", { type: "number", default: 1 })
  .option("max-states", { type: "number", default: 2_000_000 })
  .option("timeout-ms", { type: "number" })
  .option("quiet", { type: "boolean", default: false })
  .strict()
  .parseAsync();

const dataPath = fileURLToPath(new URL("../tests/data/freecell-ms32000-min-cells.txt", import.meta.url));
const minCells = parseMinCells(readFileSync(dataPath, "utf8"));
if (args.from < 1 || args.to > 32000 || args.from > args.to) {
  console.error("check-min-cells: need 1 <= --from <= --to <= 32000");
  process.exit(2);
}
const deals = sampleDeals(args.from, args.to, args.sample, args.seed);
const t0 = performance.now();
let agree = 0;
let disagree = 0;
let unknown = 0;
for (const deal of deals) {
  const r = checkMinCells(deal, minCells.get(deal)!, args["max-states"], args["timeout-ms"]);
  if (r.agrees === true) agree++;
  else if (r.agrees === false) disagree++;
  else unknown++;
  if (!args.quiet || r.agrees !== true)
    console.log(`#${deal} cells=${r.cells}: with ${r.cells} ${r.withListed}` + (r.withFewer ? `, with ${r.cells - 1} ${r.withFewer}` : "") + ` (${r.states} states, ${r.ms} ms)` + (r.agrees === false ? "  DISAGREES" : r.agrees === undefined ? "  undecided" : ""));
}
const secs = ((performance.now() - t0) / 1000).toFixed(1);
console.log(`deals ${args.from}-${args.to}, sample ${deals.length} (seed ${args.seed}): agree ${agree}, disagree ${disagree}, undecided ${unknown}; ${secs} s`);
process.exit(disagree > 0 ? 1 : 0);
