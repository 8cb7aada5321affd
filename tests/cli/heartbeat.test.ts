/**
 * Commands that can run past a few seconds report at least every 10 s. The heartbeat writes from
 * its own thread, so it keeps time while the main thread runs a loop that never yields (as a PPO
 * rollout or a benchmark section does).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");

describe("heartbeat", () => {
  it("writes on time during a synchronous loop, with the CSV's row count, and stops when told", () => {
    const dir = mkdtempSync(join(tmpdir(), "penguin-heartbeat-"));
    try {
      const csv = join(dir, "metrics.csv");
      writeFileSync(csv, "update,loss\n1,0.5\n2,0.4\n");
      const code = `
        const { heartbeat } = await import(${JSON.stringify(join(root, "dist/src/cli/progress.js"))});
        const stop = heartbeat("test", { rowsOf: ${JSON.stringify(csv)}, everySeconds: 0.25 });
        const t = Date.now();
        while (Date.now() - t < 1600) {} // never yields
        stop();
        const u = Date.now();
        while (Date.now() - u < 600) {}
      `;
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(r.status).toBe(0);
      const lines = r.stderr.trim().split("\n");
      // 1.6 s at one line per 0.25 s, less the thread's start-up: at least 3 lines, all of them
      // before stop() (none in the 0.6 s after it).
      expect(lines.length).toBeGreaterThanOrEqual(3);
      expect(lines.length).toBeLessThanOrEqual(7);
      for (const l of lines)
        expect(l).toMatch(/^test: still running after \d+ s: 2 rows in .*metrics\.csv$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
