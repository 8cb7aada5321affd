/**
 * The atlas as Markdown tables, from results/atlas/{summary,players,shards}.csv: one line per
 * row with solvable, lost and unknown (each with its 95 % interval) and CPU hours; the players'
 * win rates side by side, one line per row; and each player's CPU. Pasted into docs/atlas.md
 * and results/README.md.
 *
 *   npx tsx scripts/atlas/table.ts [results/atlas]                      # prints them
 *   npx tsx scripts/atlas/table.ts results/atlas docs/atlas.md results/README.md
 *
 * With Markdown files after the folder, it rewrites in each the lines between the markers
 * `<!-- atlas tables -->` and `<!-- /atlas tables -->` and leaves the rest of the file as it was.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readCsvFile } from "../../src/util/csv.js";
import { writeOutput } from "../../src/util/output.js";

const [dir = "results/atlas", ...pages] = process.argv.slice(2);
const BEGIN = "<!-- atlas tables -->";
const END = "<!-- /atlas tables -->";

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

/** A Markdown table with every column padded to its widest cell (what a formatter would write). */
function table(head: string[], rows: string[][]): string[] {
  const width = head.map((h, j) => Math.max(3, h.length, ...rows.map((r) => r[j]!.length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((c, j) => c.padEnd(width[j]!)).join(" | ")} |`;
  return [line(head), line(width.map((w) => "-".repeat(w))), ...rows.map(line)];
}

const lines = table(
  ["row", "rules", "deals", "n", "solvable", "lost", "unknown", "CPU h"],
  read("summary.csv").map((r) => {
    const secs = cpu.get(`${r.row} solver(maxStates=${r.max_states})`) ?? 0;
    return [
      r.row!,
      `\`${r.rules}\``,
      `${r.deck === "ms" ? "MS " : ""}${int(r.first_deal!)}–${int(r.last_deal!)}`,
      int(r.n!),
      `**${pct(r.rate!, 3)} %** [${pct(r.low!, 3)}–${pct(r.high!, 3)}]`,
      `${int(r.lost!)} (${pct(r.lost_rate!, 3)} % [${pct(r.lost_low!, 3)}–${pct(r.lost_high!, 3)}])`,
      `${int(r.unknown!)} [${pct(r.unknown_low!, 3)}–${pct(r.unknown_high!, 3)}]`,
      (secs / 3600).toFixed(3),
    ];
  }),
);

const solverHours =
  [...cpu].filter(([k]) => k.includes(" solver(")).reduce((a, [, s]) => a + s, 0) / 3600;
lines.push(
  "",
  `The solver's CPU over all rows: ${solverHours.toFixed(2)} CPU-hours (the sum of the shards' process CPU time).`,
);

// The players side by side, one line per row: each cell is the win rate with its interval and,
// in parentheses, the share of the solvable deals (among the same deals) the player won.
const players = read("players.csv");
if (players.length > 0) {
  const kinds = ["random", "greedy", "lookahead", "safety"].filter((k) =>
    players.some((p) => p.player!.startsWith(k)),
  );
  const rows = [...new Set(players.map((p) => p.row!))];
  lines.push(
    "",
    "Each player's cell: the deals won, in per cent, with the 95 % interval, and in parentheses",
    "the per cent of the solvable deals among the same deals. Its deals and CPU are in the table",
    "after it.",
    "",
    ...table(
      ["row", ...kinds],
      rows.map((row) => [
        row,
        ...kinds.map((k) => {
          const p = players.find((x) => x.row === row && x.player!.startsWith(k));
          if (!p) return "–";
          const share = p.share_of_solvable ? ` (${pct(p.share_of_solvable, 1)})` : "";
          return `**${pct(p.rate!)}** [${pct(p.low!)}–${pct(p.high!)}]${share}`;
        }),
      ]),
    ),
    "",
    ...table(
      ["player", "deals", "CPU h"],
      kinds.map((k) => {
        const ps = players.filter((p) => p.player!.startsWith(k));
        const secs = ps.reduce((a, p) => a + (cpu.get(`${p.row} ${p.player}`) ?? 0), 0);
        const deals = [...new Set(ps.map((p) => `${int(p.first_deal!)}–${int(p.last_deal!)}`))];
        return [ps[0]!.player!, `${deals.join(", ")} of each row`, (secs / 3600).toFixed(3)];
      }),
    ),
  );
}
const text = `${lines.join("\n")}\n`;
if (pages.length === 0) process.stdout.write(text);
// Every page is checked before any is written, so a page without markers changes none.
const rewritten = pages.map((page) => {
  const old = readFileSync(page, "utf8");
  const a = old.indexOf(`${BEGIN}\n`);
  const b = old.indexOf(END, a);
  if (a < 0 || b < 0) {
    process.stderr.write(`${page}: no "${BEGIN}" … "${END}" lines to write the tables between\n`);
    process.exit(2);
  }
  return `${old.slice(0, a + BEGIN.length + 1)}\n${text}\n${old.slice(b)}`;
});
pages.forEach((page, i) => writeOutput(page, rewritten[i]!));
