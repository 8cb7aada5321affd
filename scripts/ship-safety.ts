/**
 * Writes models/safety/, the safety network the package ships (`--agent safety` without a model):
 * a training run's network, byte for byte (float32), with the training machine's data folder left
 * out of its metadata. Half precision would halve its 292 kB but changes play on about 2 % of deals
 * (4 of seeds 100001–100200), so the package keeps the full weights.
 * tests/train/shipped.test.ts checks that it replays the run's recorded games.
 *
 *   npx tsx scripts/ship-safety.ts [results/learn/r1-w5/last]
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSafety } from "../src/players/safety/model.js";

const from = process.argv[2] ?? "results/learn/r1-w5/last";
const to = "models/safety";
loadSafety(from); // refuses a damaged or foreign network before anything is written
const file = JSON.parse(readFileSync(join(from, "model.json"), "utf8")) as Record<string, unknown>;
const meta = file.meta as Record<string, unknown>;
mkdirSync(to, { recursive: true });
copyFileSync(join(from, "weights.bin"), join(to, "weights.bin"));
writeFileSync(
  join(to, "model.json"),
  `${JSON.stringify({ ...file, meta: { play: meta.play, step: meta.step, rules: meta.rules, from } })}\n`,
);
process.stdout.write(`wrote ${to} from ${from}\n`);
