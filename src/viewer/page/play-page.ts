/**
 * The play page's script (bundled by esbuild, served by `penguin web`). Every rule decision is the
 * engine's: a click or drop becomes a move in the play notation and goes through `parseMove`, so a
 * refused move shows the same reason the terminal gives. The server only deals and gives hints.
 */
import { formatBoard, parseBoard } from "../../engine/board.js";
import { cardToString, type Card } from "../../engine/card.js";
import {
  applyMove,
  CELL0,
  legalMoves,
  moveCard,
  moveCount,
  moveFrom,
  moveTo,
  undoMove,
  type Move,
} from "../../engine/moves.js";
import { IllegalMoveError } from "../../errors.js";
import { locationChar, moveToString, parseMove } from "../../engine/notation.js";
import { COLUMN_CAP, type State } from "../../engine/state.js";
import { cellWord, PRESET_TITLES } from "../../engine/rules.js";
import { boardSvg, type BoardMarks } from "./board-svg.js";
import type { DealData, ErrorAnswer, HintAnswer, PlayData } from "./play-data.js";

function el<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`the page has no #${id}`);
  return e as T;
}

interface Pick {
  /** Source in the notation: column digit or flipper letter. */
  readonly from: string;
  /** Cards picked up (from the clicked card to the end of the column). */
  readonly count: number;
  readonly cards: ReadonlySet<Card>;
}

const data = JSON.parse(el("play-data").textContent ?? "") as PlayData;
let current: DealData = data.first;
let s: State = parseBoard(current.board, current.rules);
const history: { move: Move; text: string }[] = [];
let pick: Pick | undefined;
let hint: string | undefined;

const board = el("board");
const message = el("message");
const list = el("moves");

function say(text: string, error = false): void {
  message.textContent = text;
  message.className = error ? "error" : "";
  document.body.dataset.message = text;
}

/** Destinations of the legal moves from `from` (as data-target values; `a` = a free flipper). */
function targetsFrom(from: string, count: number): Set<string> {
  const out = new Set<string>();
  for (const m of legalMoves(s)) {
    if (locationChar(moveFrom(m), false) !== from) continue;
    const to = moveTo(m);
    // Onto a non-empty column the engine picks the group, so any card of the run may be grabbed;
    // into an empty column the grabbed count must be one of the legal ones.
    if (to < CELL0 && s.len[to] === 0 && moveCount(m) !== count) continue;
    out.add(locationChar(to, true));
  }
  return out;
}

const movesText = (n: number): string => `${n} move${n === 1 ? "" : "s"}`;

function render(): void {
  const movable = new Set<Card>();
  for (const m of legalMoves(s)) movable.add(moveCard(m));
  let hinted: Move | undefined;
  try {
    hinted = hint === undefined ? undefined : parseMove(hint, s);
  } catch {
    hinted = undefined;
  }
  const marks: BoardMarks = {
    ...(current.beak === undefined ? {} : { beak: current.beak }),
    movable,
    ...(hinted !== undefined && !pick
      ? { hinted: moveCard(hinted), targets: new Set([locationChar(moveTo(hinted), true)]) }
      : {}),
    ...(pick ? { selected: pick.cards, targets: targetsFrom(pick.from, pick.count) } : {}),
  };
  board.innerHTML = boardSvg(s, marks);
  const title = PRESET_TITLES[s.rules.preset];
  el("game-title").textContent = title;
  document.title = `${title} · ${current.deal}`;
  el("deal-name").textContent = `${current.deal} · ${current.rulesLabel}`;
  el("cells-label").textContent = cellWord(s.rules);
  el("status").textContent =
    `${movesText(history.length)} · ${s.cardsHome()}/52 home${s.isWon() ? " · won" : movable.size === 0 ? " · no legal move left" : ""}`;
  list.innerHTML = "";
  for (const [i, h] of history.entries()) {
    const li = document.createElement("li");
    li.textContent = h.text;
    li.dataset.index = String(i + 1);
    list.appendChild(li);
  }
  el<HTMLButtonElement>("undo").disabled = history.length === 0;
  document.body.dataset.moves = String(history.length);
}

/** Tries `from` → `to` (notation characters); the engine accepts it or says why not. */
function attempt(from: string, to: string, count: number): void {
  let text = from + to;
  if (/^[0-9]$/.test(to) && /^[0-9]$/.test(from)) {
    const col = (Number(to) + 9) % 10;
    if (col < s.nColumns && s.len[col] === 0) text += `/${count}`;
  }
  pick = undefined;
  hint = undefined;
  try {
    const m = parseMove(text, s);
    const played = moveToString(m, s);
    applyMove(s, m);
    history.push({ move: m, text: played });
    say(s.isWon() ? `won in ${movesText(history.length)}` : `played ${played}`);
  } catch (e) {
    say(e instanceof IllegalMoveError ? e.message : `error: ${(e as Error).message}`, true);
  }
  render();
}

function pickAt(target: Element): Pick | undefined {
  const g = target.closest("[data-source]");
  if (!(g instanceof SVGElement)) return undefined;
  const from = g.dataset.source!;
  if (g.dataset.where === "cell")
    return { from, count: 1, cards: new Set([s.cells[Number(g.dataset.cell)]!]) };
  const col = Number(g.dataset.col);
  const row = Number(g.dataset.row);
  const cards = new Set<Card>();
  for (let d = row; d < s.len[col]!; d++) cards.add(s.cards[col * COLUMN_CAP + d]!);
  return { from, count: s.len[col]! - row, cards };
}

function targetAt(x: number, y: number): string | undefined {
  for (const e of document.elementsFromPoint(x, y)) {
    const t = e.closest("[data-target]");
    if (t instanceof SVGElement && !t.classList.contains("dragging")) return t.dataset.target;
  }
  return undefined;
}

// Pointer handling: a press on a card picks it up; releasing over another place drops it there;
// a press and release without moving is a click (pick, then click the destination).
let drag: { pick: Pick; x: number; y: number; moved: boolean; scale: number } | undefined;
// A double click sends a single card home. The first press re-renders the board, so the browser's
// own dblclick (two clicks on one element) never comes: two presses on the same place within
// DOUBLE_MS count as one.
const DOUBLE_MS = 400;
let lastPress: { from: string; at: number } | undefined;
board.addEventListener("pointerdown", (e) => {
  const target = e.target as Element;
  const p = pickAt(target);
  const now = performance.now();
  if (p && p.count === 1 && lastPress?.from === p.from && now - lastPress.at < DOUBLE_MS) {
    lastPress = undefined;
    drag = undefined;
    attempt(p.from, "h", 1);
    return;
  }
  lastPress = p ? { from: p.from, at: now } : undefined;
  if (pick && !p?.cards.has([...pick.cards][0]!)) {
    // A destination click for the card already picked up.
    const to = target.closest("[data-target]");
    if (to instanceof SVGElement) attempt(pick.from, to.dataset.target!, pick.count);
    else {
      pick = undefined;
      render();
    }
    return;
  }
  if (!p) return;
  const svg = board.querySelector("svg")!;
  drag = {
    pick: p,
    x: e.clientX,
    y: e.clientY,
    moved: false,
    scale: svg.viewBox.baseVal.width / svg.getBoundingClientRect().width,
  };
  pick = p;
  render();
  board.setPointerCapture(e.pointerId);
});
board.addEventListener("pointermove", (e) => {
  if (!drag) return;
  const dx = (e.clientX - drag.x) * drag.scale;
  const dy = (e.clientY - drag.y) * drag.scale;
  if (!drag.moved && Math.hypot(dx, dy) < 4) return;
  drag.moved = true;
  for (const c of drag.pick.cards) {
    const g = board.querySelector(`.card[data-card="${cardToString(c)}"]`);
    if (!(g instanceof SVGGElement)) continue;
    g.classList.add("dragging");
    g.style.pointerEvents = "none";
    g.dataset.at ??= g.getAttribute("transform") ?? "";
    g.setAttribute("transform", `${g.dataset.at} translate(${dx},${dy})`);
  }
});
board.addEventListener("pointerup", (e) => {
  if (!drag) return;
  const d = drag;
  drag = undefined;
  if (!d.moved) return; // a click: keep the card picked up and wait for a destination
  const to = targetAt(e.clientX, e.clientY);
  if (to === undefined || to === d.pick.from) {
    pick = undefined;
    render();
  } else attempt(d.pick.from, to, d.pick.count);
});

function undo(): void {
  const h = history.pop();
  if (!h) {
    say("nothing to undo", true);
    return;
  }
  undoMove(s, h.move);
  pick = undefined;
  hint = undefined;
  say(`undid ${h.text}`);
  render();
}
el("undo").addEventListener("click", undo);
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  if (e.key === "u" || (e.key === "z" && (e.ctrlKey || e.metaKey))) undo();
  if (e.key === "Escape") {
    pick = undefined;
    render();
  }
});

async function ask<T>(url: string, body?: unknown): Promise<T> {
  const r = await fetch(
    url,
    body === undefined
      ? {}
      : {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        },
  );
  const j = (await r.json()) as T | ErrorAnswer;
  if (!r.ok || (j as ErrorAnswer).error !== undefined)
    throw new Error((j as ErrorAnswer).error ?? `HTTP ${r.status}`);
  return j as T;
}

el("hint").addEventListener("click", async () => {
  say("thinking…");
  try {
    const a = await ask<HintAnswer>("/api/hint", { query: current.query, board: formatBoard(s) });
    if ("move" in a) {
      hint = a.move;
      say(`hint: ${a.move} (the solver wins from here in ${a.line} moves)`);
    } else say(a.message, true);
  } catch (e) {
    say(`hint failed: ${(e as Error).message}`, true);
  }
  render();
  document.body.dataset.hint = hint ?? "";
});

el("deal-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const q = new URLSearchParams();
  q.set("rules", el<HTMLSelectElement>("rules").value);
  const cells = el<HTMLInputElement>("cells").value.trim();
  if (cells !== "") q.set("cells", cells);
  q.set(el<HTMLSelectElement>("kind").value, el<HTMLInputElement>("number").value.trim());
  try {
    const d = await ask<DealData>(`/api/deal?${q}`);
    current = d;
    s = parseBoard(d.board, d.rules);
    history.length = 0;
    pick = undefined;
    hint = undefined;
    say(`new deal: ${d.deal}`);
    render();
  } catch (err) {
    say((err as Error).message, true);
  }
});

const rulesSelect = el<HTMLSelectElement>("rules");
for (const p of data.presets) {
  const o = document.createElement("option");
  o.value = o.textContent = p;
  if (p === current.rules.preset) o.selected = true;
  rulesSelect.appendChild(o);
}
el<HTMLSelectElement>("kind").value = current.kind;
el<HTMLInputElement>("number").value = current.number;
if (current.query.cells !== undefined) el<HTMLInputElement>("cells").value = current.query.cells;
say("drag a card (or click it, then its destination); double-click sends a card home");
render();
document.body.dataset.readyMs = performance.now().toFixed(1);
document.body.dataset.ready = "1";
