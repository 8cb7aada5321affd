/**
 * The random-play property check shared by the property test files: at every step of seeded
 * random games the engine must agree with the reference model (tests/engine/reference.ts).
 */
import {
  applyMoveUnchecked,
  CELL0,
  deal,
  FOUNDATION,
  generateMoves,
  isLegal,
  makeMove,
  MAX_MOVES,
  moveAutoHome,
  moveCount,
  moveFrom,
  moveTo,
  moveToEmpty,
  moveToString,
  NO_CARD,
  parseMove,
  undoMove,
  type Move,
  type Rules,
  type State,
} from "../../src/engine/index.js";
import { countMoves } from "../../src/engine/moves.js";
import { refCardsConserved, refLegalMoves, refMoveKey } from "./reference.js";
import { engineMoveKey, positionKey, prng, refRules, toRef } from "./helpers.js";

export interface PlayoutStats {
  steps: number;
  games: number;
  maxMoves: number;
  emptyColumnMoves: number;
  groupMoves: number;
  foundationMoves: number;
  undos: number;
  positions: number;
  /** Moves that carried an uncovered base card home (penguin-beak-home). */
  autoHomeMoves: number;
}

function fail(what: string, s: State, detail: string): never {
  throw new Error(`${what} at ${positionKey(s)}: ${detail}`);
}

/**
 * Plays `games` seeded random games of up to `steps` moves (foundation moves favoured so games
 * get far; one step in ten is an undo) and checks, at every position:
 * generated set == reference set (no duplicates), each move isLegal and round-trips through the
 * notation, the list from each source is the full list's moves from there (isLegal reads only
 * that one) and a move changed in one field is legal only if listed, apply/undo restores the
 * position and its hash, the incremental hash equals a
 * from-scratch rehash, equal positions (up to flipper order) have equal hashes, 52 cards are
 * conserved and foundations never shrink.
 */
export function checkRandomPlay(
  rules: Rules,
  games: number,
  steps: number,
  seed: number,
): PlayoutStats {
  const rr = refRules(rules);
  const rand = prng(seed);
  const buf = new Int32Array(MAX_MOVES);
  const one = new Int32Array(MAX_MOVES);
  const hashes = new Map<string, bigint>();
  const st: PlayoutStats = {
    steps: 0,
    games,
    maxMoves: 0,
    emptyColumnMoves: 0,
    groupMoves: 0,
    foundationMoves: 0,
    undos: 0,
    positions: 0,
    autoHomeMoves: 0,
  };
  for (let g = 0; g < games; g++) {
    const s = deal(rules, `${seed}-${g}`);
    const history: Move[] = [];
    for (let step = 0; step < steps; step++) {
      st.steps++;
      const n = generateMoves(s, buf);
      if (countMoves(s) !== n) fail("countMoves differs from the list's length", s, String(n));
      const moves = Array.from(buf.subarray(0, n));
      st.maxMoves = Math.max(st.maxMoves, n);
      const ref = toRef(s);
      if (!refCardsConserved(ref, rr)) fail("cards not conserved", s, "");
      const engineKeys = moves.map((m) => engineMoveKey(m, s));
      const refKeys = refLegalMoves(rr, ref).map(refMoveKey);
      if (new Set(engineKeys).size !== n) fail("duplicate move", s, engineKeys.join(" "));
      const a = [...engineKeys].sort().join(" ");
      const b = [...refKeys].sort().join(" ");
      if (a !== b) {
        const extra = engineKeys.filter((k) => !refKeys.includes(k));
        const missing = refKeys.filter((k) => !engineKeys.includes(k));
        fail(
          "move sets differ",
          s,
          `engine-only [${extra.join(" ")}] reference-only [${missing.join(" ")}]`,
        );
      }
      const hash = s.hash();
      const key = positionKey(s);
      const known = hashes.get(key);
      if (known === undefined) hashes.set(key, hash);
      else if (known !== hash) fail("equal positions, different hashes", s, `${known} vs ${hash}`);
      const before = s.clone();
      s.rehash();
      if (s.hash() !== hash) fail("incremental hash drifted", s, `${hash} vs ${s.hash()}`);
      for (let from = 0; from < CELL0 + s.nCells; from++) {
        const k = generateMoves(s, one, from);
        const want = moves.filter((m) => moveFrom(m) === from);
        if (k !== want.length || want.some((m, i) => one[i] !== m))
          fail("moves from one source differ from the full list's", s, String(from));
        // The source's card sent home (isLegal reads moves home on their own): legal exactly when listed.
        const card = from >= CELL0 ? s.cells[from - CELL0]! : s.column(from).at(-1);
        if (card !== undefined && card !== NO_CARD)
          for (let f = 0; f < 4; f++) {
            const home = makeMove(from, FOUNDATION, 1, card) | (s.tables.rankHome ? f << 23 : 0);
            if (isLegal(s, home) !== moves.includes(home))
              fail("isLegal disagrees with the list on a move home", s, `${from} ${card} ${f}`);
          }
      }
      // Every move of one source (in turn) that the int can say: each destination, counts with
      // their head card, either empty-column bit: legal exactly when listed (isLegal reads most
      // moves off the position without the list).
      if (step % 4 === 0) {
        const from = (g + step / 4) % (CELL0 + s.nCells);
        if (from < s.nColumns || from >= CELL0) {
          const col = from < CELL0 ? s.column(from) : [];
          for (let to = 0; to <= FOUNDATION; to++)
            for (let k = 1; k <= (from < CELL0 ? Math.min(col.length, 6) : 1); k++) {
              const card = from < CELL0 ? col[col.length - k]! : s.cells[from - CELL0]!;
              for (const empty of [false, true]) {
                const m = makeMove(from, to, k, card, empty);
                if (isLegal(s, m) !== moves.includes(m))
                  fail(
                    "isLegal disagrees with the list",
                    s,
                    `${from}>${to} x${k} card ${card} empty ${empty}`,
                  );
              }
            }
        }
      }
      for (let i = 0; i < n; i++) {
        const m = moves[i]!;
        if (!isLegal(s, m)) fail("generated move not isLegal", s, engineKeys[i]!);
        // Another source, destination, count or card: legal exactly when listed.
        for (const other of [
          m ^ 1,
          m ^ (1 << 5),
          m ^ (1 << 10),
          m ^ (1 << 16),
          m ^ (3 << 10),
          m ^ (1 << 22),
          m ^ (1 << 23),
          m ^ (1 << 25),
        ])
          if (isLegal(s, other) !== moves.includes(other))
            fail("isLegal disagrees with the list", s, `${engineKeys[i]!} changed to ${other}`);
        if (parseMove(moveToString(m, s), s) !== m)
          fail("notation round trip (with position)", s, moveToString(m, s));
        // Without the position the text differs only for moves into an empty column or onto a rank foundation.
        if ((moveToEmpty(m) || s.tables.rankHome) && parseMove(moveToString(m), s) !== m)
          fail("notation round trip", s, moveToString(m));
        applyMoveUnchecked(s, m);
        undoMove(s, m);
        if (!s.equals(before) || s.hash() !== hash)
          fail("apply/undo round trip", s, engineKeys[i]!);
        if (moveTo(m) === FOUNDATION) st.foundationMoves++;
        if (moveToEmpty(m)) st.emptyColumnMoves++;
        if (moveCount(m) > 1) st.groupMoves++;
        if (moveAutoHome(m) > 0) st.autoHomeMoves++;
      }
      if (history.length && rand() < 0.1) {
        undoMove(s, history.pop()!);
        st.undos++;
        continue;
      }
      if (n === 0 || s.isWon()) break;
      const home = moves.filter((m) => moveTo(m) === FOUNDATION);
      const m =
        home.length && rand() < 0.5
          ? home[Math.floor(rand() * home.length)]!
          : moves[Math.floor(rand() * n)]!;
      const found = Array.from(s.found);
      applyMoveUnchecked(s, m);
      history.push(m);
      for (let i = 0; i < 4; i++)
        if (s.found[i]! < found[i]!) fail("a foundation shrank", s, String(m));
    }
  }
  st.positions = hashes.size;
  return st;
}
