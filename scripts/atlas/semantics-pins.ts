/**
 * Rewrites the pins of the atlas's verdict semantics (tests/experiments/fixtures/atlas-semantics.json):
 * each row's rules walk (experiments/lib/atlas-version.ts) under today's VERDICT_SEMANTICS.
 * Refuses while a walk differs from its pin under the same number: a change to what the rules
 * allow or what a move does needs VERDICT_SEMANTICS bumped first, so that no shard played under
 * the old rules merges with one played under the new.
 *
 *   npx tsx scripts/atlas/semantics-pins.ts
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROW_NAMES } from "../../experiments/lib/atlas-rows.js";
import { rulesWalk, VERDICT_SEMANTICS } from "../../experiments/lib/atlas-version.js";
import { writeOutput } from "../../src/util/output.js";

const PINS = join(import.meta.dirname, "../../tests/experiments/fixtures/atlas-semantics.json");

const walks = Object.fromEntries(ROW_NAMES.map((r) => [r, rulesWalk(r)]));
if (existsSync(PINS)) {
  const old = JSON.parse(readFileSync(PINS, "utf8")) as {
    semantics: number;
    walks: Record<string, string>;
  };
  const changed = ROW_NAMES.filter((r) => old.walks[r] !== undefined && old.walks[r] !== walks[r]);
  if (old.semantics === VERDICT_SEMANTICS && changed.length > 0) {
    process.stderr.write(
      `rules walks changed (${changed.join(", ")}) under VERDICT_SEMANTICS ${VERDICT_SEMANTICS}: bump it in experiments/lib/atlas-version.ts, then rerun\n`,
    );
    process.exit(2);
  }
}
writeOutput(PINS, `${JSON.stringify({ semantics: VERDICT_SEMANTICS, walks }, null, 2)}\n`);
process.stdout.write(
  `${PINS}: ${ROW_NAMES.length} rows pinned under semantics ${VERDICT_SEMANTICS}\n`,
);
