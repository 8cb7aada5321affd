/**
 * Replays for `penguin eval --html DIR`: one HTML file per lost deal (or per deal), named after
 * the deal (`17.html`, `ms-5.html`), each the same page `penguin replay` writes.
 */
import { join } from "node:path";
import type { AgentOptions } from "../agents/agent.js";
import type { Rules } from "../engine/rules.js";
import { parseDealLabel } from "../eval/deals.js";
import { REPLAY_MARK, replayHtml } from "./html.js";
import { closeSync, lstatSync, readSync, type Stats } from "node:fs";
import { UsageError } from "../errors.js";
import { openRegularFile } from "../util/read.js";
import { printable } from "../util/text.js";
import { checkOutputDir, makeOutputDir, writeOutput } from "./output.js";
import { buildReplay } from "./record.js";

export interface ReplayBatch {
  readonly dir: string;
  readonly all: boolean;
  readonly rules: Rules;
  readonly agent: string;
  readonly agentOptions: AgentOptions;
  /** Moves before a game counts as lost (default: the rules' registered limit). */
  readonly maxSteps?: number;
}

/** Checks DIR before the evaluation starts, so a bad path costs nothing (it is made only when replays are written). */
export function prepareReplayDir(dir: string): void {
  checkOutputDir(dir);
}

function replayFileName(dealLabel: string): string {
  return `${dealLabel.replace(/[^0-9A-Za-z-]/g, "-")}.html`;
}

/** Writes the replays of `deals` (labels with their result); returns how many files were written. */
export async function writeReplays(
  b: ReplayBatch,
  deals: readonly { deal: string; won: boolean; agent: string }[],
): Promise<number> {
  let n = 0;
  if (deals.some((d) => b.all || !d.won)) makeOutputDir(b.dir);
  // Before any work: a file of the same name that this tool did not write is the user's.
  for (const d of deals) if (b.all || !d.won) checkOwnReplay(join(b.dir, replayFileName(d.deal)));
  for (const d of deals) {
    if (d.won && !b.all) continue;
    const data = await buildReplay({
      rules: b.rules,
      deal: parseDealLabel(d.deal),
      agent: b.agent,
      agentOptions: b.agentOptions,
      maxSteps: b.maxSteps,
    });
    // Every player here is deterministic from the deal, so the replay is the game of the row.
    if (data.player !== d.agent || data.won !== d.won)
      throw new Error(
        `replay of deal ${d.deal} differs from its row (${data.player}, won ${data.won})`,
      );
    writeOutput(join(b.dir, replayFileName(d.deal)), await replayHtml(data));
    n++;
  }
  return n;
}

/** Refuses to replace `path` when it exists and is not a replay page written here. */
function checkOwnReplay(path: string): void {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch {
    return;
  }
  const refuse = (why: string): never => {
    throw new UsageError(
      `--html: ${printable(path)} ${why}, so it is not replaced; move it or name another folder`,
    );
  };
  if (!st.isFile()) refuse("exists and is not a regular file");
  const { fd } = openRegularFile(path, "replay page");
  try {
    const head = Buffer.alloc(64 * 1024);
    const got = readSync(fd, head, 0, head.length, 0);
    const text = head.subarray(0, got).toString("utf8");
    if (!text.includes(REPLAY_MARK) && !text.includes("<h1>Penguin replay</h1>"))
      refuse("exists and was not written by penguin eval --html");
  } finally {
    closeSync(fd);
  }
}
