/**
 * The atlas as Markdown tables, from results/atlas/{summary,players,shards}.csv: one line per
 * row with solvable, lost and unknown (each with its 95 % interval) and CPU hours, then the
 * agents. Pasted into results/README.md.
 *
 *   npx tsx scripts/atlas/table.ts [results/atlas]
 */
import { join } from "node:path";
import { readCsvFile } from "../../src/util/csv.js";

const dir = process.argv[2] ?? "results/atlas";

function read(file: string): Record<string, string>[] {
  const rows: Record<string, string>[] = [];
  let header: string[] = [];
  readCsvFile(join(dir, file), file, ({ fields }, i) => {
    if (i === 0) header = fields;
    else rows.push(Object.fromEntries(header.map((h, j) => [h, fields[j]!])));
  });
  return rows;
}

const pct = (x: string, d = 2): string => (100 * Number(x)).toFixed(d);
const int = (x: string | number): string => Number(x).toLocaleString("en-US");
const cpu = new Map<string, number>();
for (const s of read("shards.csv")) {
  const k = `${s.row} ${s.player}`;
  cpu.set(k, (cpu.get(k) ?? 0) + Number(s.cpu_seconds));
}

const lines = [
  "| row | rules | deals | n | solvable | lost | unknown | CPU h |",
  "|---|---|---|---|---|---|---|---|",
];
for (const r of read("summary.csv")) {
  const secs = cpu.get(`${r.row} solver(maxStates=${r.max_states})`) ?? 0;
  lines.push(
    `| ${r.row} | \`${r.rules}\` | ${r.deck === "ms" ? "MS " : ""}${int(r.first_deal!)}–${int(r.last_deal!)} | ${int(r.n!)} | ` +
      `**${pct(r.rate!, 3)} %** [${pct(r.low!, 3)}–${pct(r.high!, 3)}] | ` +
      `${int(r.lost!)} (${pct(r.lost_rate!, 3)} % [${pct(r.lost_low!, 3)}–${pct(r.lost_high!, 3)}]) | ` +
      `${int(r.unknown!)} [${pct(r.unknown_low!, 3)}–${pct(r.unknown_high!, 3)}] | ${(secs / 3600).toFixed(3)} |`,
  );
}
const players = read("players.csv");
if (players.length > 0) {
  lines.push(
    "",
    "| row | player | deals | won | share of the solvable deals | CPU h |",
    "|---|---|---|---|---|---|",
  );
  for (const p of players)
    lines.push(
      `| ${p.row} | ${p.player} | ${int(p.first_deal!)}–${int(p.last_deal!)} | **${pct(p.rate!)} %** [${pct(p.low!)}–${pct(p.high!)}] | ` +
        `${p.share_of_solvable ? `${pct(p.share_of_solvable)} % of ${int(p.solvable!)}` : "–"} | ${((cpu.get(`${p.row} ${p.player}`) ?? 0) / 3600).toFixed(3)} |`,
    );
}
process.stdout.write(`${lines.join("\n")}\n`);
