/**
 * The two pages as complete HTML documents: styles and script inline, data embedded as JSON, so a
 * replay opens from disk with no server and no network, and the play page needs only its server.
 */
import { BOARD_CSS } from "./page/board-svg.js";
import type { ReplayData } from "./page/replay-data.js";
import type { PlayData } from "./page/play-data.js";
import { pageScript } from "./bundle.js";
import { PRESET_TITLES } from "../engine/rules.js";
import { parseRulesLabel } from "./labels.js";

const escapeHtml = (t: string): string =>
  t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** JSON that is safe inside a <script> element (no "</script>", no "<!--"). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const PAGE_CSS = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 16px; color: #222; background: #f4f4f0; }
h1 { font-size: 18px; margin: 0 0 8px; }
dl.facts { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 0 0 8px; }
dl.facts div { display: flex; gap: 4px; }
dl.facts dt { color: #666; }
dl.facts dd { margin: 0; font-weight: 600; }
.won { color: #176b2c; } .lost { color: #a01c1c; }
#verdict { margin: 4px 0 10px; color: #7a3b00; }
.controls { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin: 8px 0; }
.controls input[type=range] { flex: 1 1 240px; }
button { font: inherit; padding: 3px 10px; }
.main { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
#board { flex: 3 1 480px; max-width: 900px; }
#board svg.board { width: 100%; height: auto; max-height: 88vh; }
ol#moves { list-style: none; margin: 0; padding: 4px; display: grid; grid-template-columns: repeat(auto-fill, 5.2em); align-content: start;
  gap: 1px 4px; font-family: ui-monospace, monospace; flex: 1 1 280px; max-width: 520px; max-height: 640px; overflow-y: auto; }
ol#moves li { cursor: pointer; padding: 0 3px; border-radius: 3px; white-space: nowrap; }
ol#moves li::before { content: attr(data-index) ". "; color: #888; font-size: 85%; }
ol#moves li.current { background: #1456b8; color: #fff; }
ol#moves li.current::before { color: #dde; }
ol#moves li.loss { outline: 2px solid #c0152a; }
ol#moves li.loss::after { content: "✗"; color: #c0152a; }
ol#moves li.loss.current::after { color: #fff; }
.error { color: #a01c1c; font-weight: 600; }
#message { min-height: 1.4em; }
`;

/** In every replay page's head: how `eval --html` tells its own files from a user's. */
export const REPLAY_MARK = '<meta name="generator" content="penguin-gym replay">';

export async function replayHtml(d: ReplayData): Promise<string> {
  const script = await pageScript("replay");
  const title = `${PRESET_TITLES[parseRulesLabel(d.rulesLabel).preset]} replay · ${d.deal} · ${d.rulesLabel} · ${d.player}`;
  const fact = (k: string, v: string, cls = ""): string =>
    `<div><dt>${k}</dt><dd${cls ? ` class="${cls}"` : ""} id="fact-${k.replace(/\s+/g, "-")}">${escapeHtml(v)}</dd></div>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
${REPLAY_MARK}
<title>${escapeHtml(title)}</title>
<style>${PAGE_CSS}${BOARD_CSS}</style></head>
<body>
<h1>${escapeHtml(PRESET_TITLES[parseRulesLabel(d.rulesLabel).preset])} replay</h1>
<dl class="facts">${fact("deal", d.deal)}${fact("rules", d.rulesLabel)}${fact("player", d.player)}${fact("result", d.won ? "won" : d.ending === "step-limit" ? "lost (step limit)" : "lost", d.won ? "won" : "lost")}${fact("cards home", `${d.cardsHome}/52`)}${fact("moves", String(d.moves.length))}</dl>
<p id="verdict"></p>
<div class="controls">
<button id="first" title="start (Home)">|◀</button><button id="back" title="back (←)">◀</button>
<button id="play" title="play / pause (space)">▶ play</button>
<button id="forward" title="forward (→)">▶</button><button id="last" title="end (End)">▶|</button>
<label>speed <select id="speed"><option value="1">1</option><option value="2">2</option><option value="4" selected>4</option><option value="10">10</option><option value="30">30</option></select> moves/s</label>
<input id="step" type="range" min="0" max="0" value="0" aria-label="position">
<span id="where"></span>
</div>
<div class="main"><div id="board"></div><ol id="moves"></ol></div>
<script id="replay-data" type="application/json">${scriptJson(d)}</script>
<script>${script}</script>
</body></html>
`;
}

export async function playHtml(d: PlayData): Promise<string> {
  const script = await pageScript("play");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src data:">
<title>Penguin</title>
<style>${PAGE_CSS}${BOARD_CSS}</style></head>
<body>
<h1><span id="game-title">Penguin</span> <span id="deal-name"></span></h1>
<form id="deal-form" class="controls">
<label>rules <select id="rules"></select></label>
<label><span id="cells-label">flippers</span> <input id="cells" type="number" min="0" max="8" placeholder="preset" style="width:5em"></label>
<select id="kind" aria-label="deal by"><option value="seed">seed</option><option value="ms">Microsoft #</option></select>
<input id="number" value="1" style="width:11em" aria-label="deal number">
<button type="submit" id="new">new deal</button>
<button type="button" id="undo" title="undo (u)">undo</button>
<button type="button" id="hint" title="the solver's next move">hint</button>
<span id="status"></span>
</form>
<p id="message"></p>
<div class="main"><div id="board"></div><ol id="moves"></ol></div>
<script id="play-data" type="application/json">${scriptJson(d)}</script>
<script>${script}</script>
</body></html>
`;
}
