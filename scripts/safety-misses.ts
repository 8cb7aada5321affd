/**
 * Where a player's games were lost, from the labels `penguin dataset` wrote while it played: per
 * dataset, the games, those won (and those without a fatal move), the positions that hold both a losing and a winnable move, the
 * fatal moves played, and how many of those came where only moves back to a position already
 * seen in the game were winnable (the never-repeat guard forced the loss) or where a fresh
 * winnable move existed (a real miss); and the moves played into seen positions per game.
 *
 *   npx tsx scripts/safety-misses.ts runs/own-chd [more dataset folders …]
 *
 * A labelled game stops at the first fatal move, so each lost game has exactly one. Prints one
 * JSON line per dataset.
 */
import { applyMove, undoMove } from "../src/engine/moves.js";
import { UsageError } from "../src/errors.js";
import { PACK_STRIDE, unpackState, Unpacker } from "../src/train/safety/pack.js";
import { loadDataset } from "../src/train/safety/dataset.js";
import { decisionStarts } from "../src/train/safety/choice.js";

function misses(dir: string): Record<string, number | string> {
  const ds = loadDataset([dir]);
  const first = decisionStarts(ds);
  const unpacker = new Unpacker(ds.index.rules);
  const seen = new Map<number, Set<string>>();
  const backs = new Map<number, number>();
  const lost = new Set<number>();
  let critical = 0,
    fatal = 0,
    forced = 0,
    missed = 0;
  for (let d = 0; d < ds.deal.length; d++) {
    const game = ds.deal[d]!;
    let positions = seen.get(game);
    if (!positions) seen.set(game, (positions = new Set()));
    const s = unpacker.state(ds.before[d * PACK_STRIDE]!);
    unpackState(ds.before, d * PACK_STRIDE, s);
    s.rehash();
    positions.add(`${s.hashLo},${s.hashHi}`);
    let freshWinnable = 0,
      backWinnable = 0,
      losing = 0,
      playedLost = false,
      playedBack = false;
    for (let k = first[d]!; k < first[d + 1]!; k++) {
      applyMove(s, ds.move[k]!);
      const back = positions.has(`${s.hashLo},${s.hashHi}`);
      undoMove(s, ds.move[k]!);
      if (ds.label[k] === 0) losing++;
      if (ds.label[k] === 1) back ? backWinnable++ : freshWinnable++;
      if (ds.played[k] === 1) {
        playedLost = ds.label[k] === 0;
        playedBack = back;
      }
    }
    if (losing > 0 && freshWinnable + backWinnable > 0) critical++;
    if (playedBack) backs.set(game, (backs.get(game) ?? 0) + 1);
    if (!playedLost) continue;
    fatal++;
    lost.add(game);
    if (freshWinnable > 0) missed++;
    else if (backWinnable > 0) forced++;
  }
  const games = seen.size;
  const back = [...seen.keys()].map((g) => backs.get(g) ?? 0);
  return {
    data: dir,
    games,
    won: ds.index.shards.reduce((n, sh) => n + sh.gamesWon, 0),
    // Games that never played a fatal move: won, or cut by the move limit or an unknown label.
    withoutFatalMove: games - lost.size,
    criticalPositions: critical,
    fatalMoves: fatal,
    forcedByGuard: forced,
    missedFreshWinnable: missed,
    missRate: critical ? missed / critical : 0,
    movesIntoSeenPerGame: back.reduce((a, b) => a + b, 0) / Math.max(1, games),
  };
}

const dirs = process.argv.slice(2);
try {
  if (dirs.length === 0)
    throw new UsageError("name one or more dataset folders written by penguin dataset");
  for (const dir of dirs) console.log(JSON.stringify(misses(dir)));
} catch (e) {
  if (!(e instanceof UsageError)) throw e;
  process.stderr.write(`safety-misses: ${e.message}\n`);
  process.exit(2);
}
