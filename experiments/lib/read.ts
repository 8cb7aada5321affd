/** Reads an experiment CSV row by row as records keyed by column (any size: chunked reads). */
import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { UsageError } from "../../src/errors.js";
import { parseCsv } from "../../src/cli/merge.js";

export function openStoreReader(path: string, onRow: (row: Readonly<Record<string, string>>) => void): number {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as { code?: string }).code ?? String(e)}`);
  }
  const buf = Buffer.allocUnsafe(1 << 20);
  let carry = "";
  // A chunk may end inside a multi-byte character; the decoder holds it over.
  const utf8 = new StringDecoder("utf8");
  let header: string[] | undefined;
  let rows = 0;
  try {
    for (let pos = 0; ; ) {
      const got = readSync(fd, buf, 0, buf.length, pos);
      if (got === 0) break;
      pos += got;
      const { records, partial } = parseCsv(carry + utf8.write(buf.subarray(0, got)));
      carry = partial;
      for (const r of records) {
        if (!header) {
          header = r.fields;
          continue;
        }
        const rec: Record<string, string> = {};
        header.forEach((c, i) => (rec[c] = r.fields[i] ?? ""));
        onRow(rec);
        rows++;
      }
    }
  } finally {
    closeSync(fd);
  }
  return rows;
}
