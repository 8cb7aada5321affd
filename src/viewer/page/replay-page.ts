/**
 * The replay page's script (bundled into the HTML file by esbuild). It rebuilds every position of
 * the game with the engine from the start board and the moves, then lets the reader step through
 * them: slider, buttons, play/pause at a chosen speed, arrow keys, and a clickable move list.
 */
import { parseBoard } from "../../engine/board.js";
import { applyMove } from "../../engine/moves.js";
import { parseMove } from "../../engine/notation.js";
import type { State } from "../../engine/state.js";
import { boardSize, boardSvg } from "./board-svg.js";
import type { ReplayData } from "./replay-data.js";

function el<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`the page has no #${id}`);
  return e as T;
}

function positionsOf(d: ReplayData): State[] {
  const s = parseBoard(d.board, d.rules);
  const out = [s.clone()];
  for (const text of d.moves) {
    applyMove(s, parseMove(text, s));
    out.push(s.clone());
  }
  return out;
}

function verdictText(d: ReplayData): string {
  const w = d.winnable;
  if (!w) return "";
  switch (w.kind) {
    case "never":
      return "The exact solver says this deal cannot be won from the start.";
    case "always":
      return d.won
        ? ""
        : "Every position of this game could still be won (the step limit ended it).";
    case "move":
      return `No longer winnable after move ${w.index} (${d.moves[w.index - 1]}): the exact solver can still win the position before it, not the one after.`;
    case "unknown":
      return w.from > 0
        ? `The solver's budget ran out: the first losing move is one of moves ${w.from}–${w.to}.`
        : "";
  }
}

function start(): void {
  const data = JSON.parse(el("replay-data").textContent ?? "") as ReplayData;
  const positions = positionsOf(data);
  const n = positions.length - 1;
  const lossIndex = data.winnable?.kind === "move" ? data.winnable.index : -1;
  const height = Math.max(...positions.map((p) => boardSize(p).height));
  const board = el("board");
  const slider = el<HTMLInputElement>("step");
  const where = el("where");
  const playButton = el<HTMLButtonElement>("play");
  const speed = el<HTMLSelectElement>("speed");
  const list = el("moves");
  el("verdict").textContent = verdictText(data);

  const items: HTMLElement[] = data.moves.map((text, i) => {
    const li = document.createElement("li");
    li.textContent = text;
    li.dataset.index = String(i + 1);
    if (i + 1 === lossIndex) {
      li.classList.add("loss");
      li.title = "after this move the deal can no longer be won";
    }
    li.addEventListener("click", () => show(i + 1));
    list.appendChild(li);
    return li;
  });
  slider.max = String(n);

  let index = -1;
  function show(k: number): void {
    k = Math.max(0, Math.min(n, k));
    if (k === index) return;
    const t0 = performance.now();
    board.innerHTML = boardSvg(
      positions[k]!,
      data.beak === undefined ? {} : { beak: data.beak },
      height,
    );
    items[index - 1]?.classList.remove("current");
    const cur = items[k - 1];
    if (cur) {
      cur.classList.add("current");
      cur.scrollIntoView({ block: "nearest" });
    }
    index = k;
    slider.value = String(k);
    where.textContent =
      k === 0
        ? `start (${n} moves)`
        : `move ${k} of ${n}: ${data.moves[k - 1]}${k === lossIndex ? " · no longer winnable" : ""}`;
    // The header's count follows the board: cards home after move k, not at the end.
    el("fact-cards-home").textContent =
      `${positions[k]!.cardsHome()}/52${k === n ? "" : ` (${data.cardsHome}/52 at the end)`}`;
    document.body.dataset.step = String(k);
    document.body.dataset.renderMs = (performance.now() - t0).toFixed(2);
  }

  let timer: number | undefined;
  function stop(): void {
    if (timer !== undefined) window.clearInterval(timer);
    timer = undefined;
    playButton.textContent = "▶ play";
  }
  function play(): void {
    if (index >= n) show(0);
    playButton.textContent = "❚❚ pause";
    timer = window.setInterval(() => {
      if (index >= n) stop();
      else show(index + 1);
    }, 1000 / Number(speed.value));
  }
  playButton.addEventListener("click", () => (timer === undefined ? play() : stop()));
  speed.addEventListener("change", () => {
    if (timer !== undefined) {
      stop();
      play();
    }
  });
  el("first").addEventListener("click", () => show(0));
  el("back").addEventListener("click", () => show(index - 1));
  el("forward").addEventListener("click", () => show(index + 1));
  el("last").addEventListener("click", () => show(n));
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLSelectElement) return;
    const keys: Record<string, () => void> = {
      ArrowRight: () => show(index + 1),
      ArrowLeft: () => show(index - 1),
      Home: () => show(0),
      End: () => show(n),
      " ": () => (timer === undefined ? play() : stop()),
    };
    const f = keys[e.key];
    if (f) {
      e.preventDefault();
      f();
    }
  });
  show(0);
  document.body.dataset.readyMs = performance.now().toFixed(1);
  document.body.dataset.ready = "1";
}

try {
  start();
} catch (e) {
  document.body.dataset.error = String(e);
  const p = document.createElement("p");
  p.className = "error";
  p.textContent = `This replay cannot be shown: ${(e as Error).message}`;
  document.body.prepend(p);
}
