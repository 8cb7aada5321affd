/**
 * `penguin play` at a real terminal (a pseudo-terminal from util-linux `script`): Ctrl-D and
 * Ctrl-C (exit 130) end the game with the shell prompt on a new line. Skipped, with the reason printed,
 * where `script` is missing.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SCRIPT = "/usr/bin/script";
const missing = existsSync(SCRIPT)
  ? undefined
  : `no ${SCRIPT} (util-linux) to give penguin play a terminal`;
if (missing) console.warn(`SKIPPED terminal tests: ${missing}`);
const root = fileURLToPath(new URL("../..", import.meta.url));

/** Starts a game at a terminal, waits for the prompt, types `key`; returns the exit code and all output. */
function typeAtPrompt(key: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(SCRIPT, ["-qec", "node bin/penguin.js play --seed 1 --no-color", "/dev/null"], {
      cwd: root,
    });
    let out = "";
    let typed = false;
    p.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (!typed && out.endsWith("> ")) {
        typed = true;
        p.stdin.write(key);
      }
    });
    p.on("error", reject);
    p.on("close", (code) => resolve({ code, out }));
  });
}

describe.skipIf(missing !== undefined)("penguin play at a terminal", () => {
  for (const [name, key, code] of [
    ["Ctrl-D", "\x04", 0],
    ["Ctrl-C", "\x03", 130],
  ] as const)
    it(`${name} at the prompt exits ${code} and leaves the cursor on a new line`, async () => {
      const r = await typeAtPrompt(key);
      expect(r.code).toBe(code);
      expect(r.out).toContain("moves played: 0");
      expect(r.out.endsWith("> \r\n")).toBe(true);
    });
});
