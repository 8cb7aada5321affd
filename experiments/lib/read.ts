/** Reads an experiment CSV row by row as records keyed by column (any size: chunked reads). */
import { readCsvFile } from "../../src/util/csv.js";

export function openStoreReader(
  path: string,
  onRow: (row: Readonly<Record<string, string>>) => void,
): number {
  let header: string[] = [];
  let rows = 0;
  readCsvFile(path, "experiment CSV", ({ fields }, i) => {
    if (i === 0) {
      header = fields;
      return;
    }
    const rec: Record<string, string> = {};
    header.forEach((c, k) => (rec[c] = fields[k] ?? ""));
    onRow(rec);
    rows++;
  });
  return rows;
}
