/**
 * The replay and play pages in a real headless chromium. Skipped, with the reason printed, when
 * the machine has no browser.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IllegalMoveError } from "../../src/errors.js";
import {
  applyMove,
  dealMs,
  deal,
  legalMoves,
  moveFrom,
  moveTo,
  moveToString,
  parseMove,
  resolveRules,
  CELL0,
  FOUNDATION,
  type State,
} from "../../src/engine/index.js";
import { GreedyAgent } from "../../src/agents/greedy.js";
import { solve } from "../../src/solver/search.js";
import { replayHtml } from "../../src/viewer/html.js";
import { buildReplay, recordGame } from "../../src/viewer/record.js";
import { startWebServer, type WebServer } from "../../src/viewer/server.js";
import { browserMissing, openBrowser, readDomBoard, type TestBrowser } from "./browser.js";
import { engineBoard } from "./engine-board.js";

const missing = browserMissing();
if (missing) console.warn(`SKIPPED browser tests: ${missing}`);

const rules = resolveRules("penguin");
let browser: TestBrowser;
let dir: string;

async function openReplay(name: string, html: string): Promise<Page> {
  const path = join(dir, name);
  writeFileSync(path, html);
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`file://${path}`);
  await page.waitForSelector("body[data-ready]");
  expect(errors).toEqual([]);
  return page;
}

describe.skipIf(missing !== undefined)("replay page in chromium", () => {
  beforeAll(async () => {
    browser = await openBrowser();
    dir = mkdtempSync(join(tmpdir(), "penguin-replay-"));
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("a won game (greedy on seed 2) steps to its end with the arrow key and shows 52 cards home", async () => {
    const data = await buildReplay({
      rules,
      deal: { kind: "seed", seed: 2 },
      agent: "greedy",
      maxStates: 0,
    });
    expect(data.won).toBe(true);
    const page = await openReplay("won.html", await replayHtml(data));
    expect(await page.locator("#fact-result").textContent()).toBe("won");
    expect((await readDomBoard(page)).home).toBe(deal(rules, 2).cardsHome());
    for (let i = 0; i < data.moves.length; i++) await page.keyboard.press("ArrowRight");
    expect(await page.locator("body").getAttribute("data-step")).toBe(String(data.moves.length));
    const end = await readDomBoard(page);
    expect(end.home).toBe(52);
    expect(end.found).toEqual([13, 13, 13, 13]);
    expect(end.columns.flat()).toEqual([]);
    expect(await page.locator("#moves li.current").getAttribute("data-index")).toBe(
      String(data.moves.length),
    );
    // And back one step with the button.
    await page.click("#back");
    expect((await readDomBoard(page)).home).toBe(51);
    await page.close();
  });

  it("the first position lists the same cards in the same columns as the engine's layout", async () => {
    for (const seed of [3, 11]) {
      const data = await buildReplay({
        rules,
        deal: { kind: "seed", seed },
        agent: "greedy",
        maxStates: 0,
      });
      const page = await openReplay(`first-${seed}.html`, await replayHtml(data));
      expect(await readDomBoard(page)).toEqual(engineBoard(deal(rules, seed)));
      // The beak (first card dealt, deepest in column 1) carries its badge.
      expect(await page.locator(".card.beak").getAttribute("data-card")).toBe(
        engineBoard(deal(rules, seed)).columns[0]![0],
      );
      await page.close();
    }
  });

  it("the 'no longer winnable' marker sits on the move the solver says", async () => {
    // Greedy loses seed 3; find the switch by solving every position of the game in turn.
    const start = deal(rules, 3);
    const { moves } = recordGame(new GreedyAgent({}), start, 3);
    const s = start.clone();
    const winnable: boolean[] = [solve(s).result === "solved"];
    for (const m of moves) {
      applyMove(s, m);
      const r = solve(s);
      expect(r.result).not.toBe("unknown");
      winnable.push(r.result === "solved");
    }
    const first = winnable.indexOf(false);
    expect(first).toBeGreaterThan(0);
    const data = await buildReplay({ rules, deal: { kind: "seed", seed: 3 }, agent: "greedy" });
    const page = await openReplay("lost.html", await replayHtml(data));
    const marked = page.locator("#moves li.loss");
    expect(await marked.count()).toBe(1);
    expect(await marked.getAttribute("data-index")).toBe(String(first));
    expect(await page.locator("#verdict").textContent()).toContain(
      `after move ${first} (${data.moves[first - 1]})`,
    );
    await marked.click();
    expect(await page.locator("#where").textContent()).toContain("no longer winnable");
    await page.close();
  });
});

describe.skipIf(missing !== undefined)(
  "replay page: header at the shown step, the rule set's words",
  () => {
    beforeAll(async () => {
      browser = await openBrowser();
      dir = mkdtempSync(join(tmpdir(), "penguin-replay-fc-"));
    });
    afterAll(async () => {
      await browser?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("a FreeCell replay is titled FreeCell, says free cells, and counts cards home at the shown step", async () => {
      const fc = resolveRules("freecell");
      const data = await buildReplay({
        rules: fc,
        deal: { kind: "ms", n: 1 },
        agent: "greedy",
        maxStates: 0,
      });
      const page = await openReplay("freecell.html", await replayHtml(data));
      expect(await page.locator("h1").textContent()).toBe("FreeCell replay");
      // The board takes most of a 1280-pixel window, beside the move list.
      expect((await page.locator("#board svg").boundingBox())!.width).toBeGreaterThan(700);
      expect(await page.title()).toMatch(/^FreeCell replay · /);
      expect(await page.locator("#board text.label").allTextContents()).toContain("Free cells");
      expect((await page.locator("body > :not(script)").allTextContents()).join(" ")).not.toMatch(
        /flipper/i,
      );
      // Step to the middle: the header's count is the board's, the final one in brackets.
      const k = Math.floor(data.moves.length / 2);
      for (let i = 0; i < k; i++) await page.keyboard.press("ArrowRight");
      const s = dealMs(fc, 1);
      for (const text of data.moves.slice(0, k)) applyMove(s, parseMove(text, s));
      const home = (await readDomBoard(page)).home;
      expect(home).toBe(s.cardsHome());
      expect(await page.locator("#fact-cards-home").textContent()).toBe(
        `${home}/52 (${data.cardsHome}/52 at the end)`,
      );
      await page.close();
    });
  },
);

describe.skipIf(missing !== undefined)("play page in chromium", () => {
  let web: WebServer;
  let page: Page;
  let start: State;
  beforeAll(async () => {
    browser = await openBrowser();
    web = await startWebServer({
      host: "127.0.0.1",
      port: 0,
      first: { rules: "penguin", ms: "1" },
    });
    start = dealMs(rules, 1);
  });
  afterAll(async () => {
    await web?.close();
    await browser?.close();
  });

  it("opens on Microsoft #1 as the engine lays it out", async () => {
    page = await browser.context.newPage();
    await page.goto(web.url);
    await page.waitForSelector("body[data-ready]");
    expect(await readDomBoard(page)).toEqual(engineBoard(start));
  });

  it("accepts a legal move dragged onto its column", async () => {
    // The first column-to-column move the engine allows from the start.
    const m = legalMoves(start).find((x) => moveFrom(x) < CELL0 && moveTo(x) < CELL0)!;
    const text = moveToString(m, start);
    const from = page.locator(
      `.card[data-col="${moveFrom(m)}"][data-row="${start.len[moveFrom(m)]! - 1}"]`,
    );
    const onto = page.locator(
      `.card[data-col="${moveTo(m)}"][data-row="${start.len[moveTo(m)]! - 1}"]`,
    );
    await from.dragTo(onto);
    const after = start.clone();
    applyMove(after, m);
    expect(await page.locator("#message").textContent()).toBe(`played ${text}`);
    expect(await readDomBoard(page)).toEqual(engineBoard(after));
  });

  it("refuses an illegal move with the engine's reason, then undo restores the start", async () => {
    const after = start.clone();
    const played = legalMoves(start).find((x) => moveFrom(x) < CELL0 && moveTo(x) < CELL0)!;
    applyMove(after, played);
    // A column whose last card cannot go home: click it, then click the foundations.
    const col = [0, 1, 2, 3, 4, 5, 6].find(
      (c) =>
        after.len[c]! > 0 &&
        !legalMoves(after).some((x) => moveFrom(x) === c && moveTo(x) === FOUNDATION),
    )!;
    const text = `${col + 1}h`;
    let reason = "";
    try {
      parseMove(text, after);
    } catch (e) {
      expect(e).toBeInstanceOf(IllegalMoveError);
      reason = (e as Error).message;
    }
    expect(reason).toContain("illegal move");
    await page.click(`.card[data-col="${col}"][data-row="${after.len[col]! - 1}"]`);
    await page.click('[data-suit="C"]');
    expect(await page.locator("#message").textContent()).toBe(reason);
    expect(await page.locator("#message").getAttribute("class")).toBe("error");
    expect(await readDomBoard(page)).toEqual(engineBoard(after));
    await page.click("#undo");
    expect(await page.locator("#message").textContent()).toBe(
      `undid ${moveToString(played, start)}`,
    );
    expect(await readDomBoard(page)).toEqual(engineBoard(start));
  });

  it("hint gives the solver's next move; a new deal by Microsoft number loads it", async () => {
    await page.click("#hint");
    await page.waitForFunction(() => document.body.dataset.hint !== undefined);
    const r = solve(start);
    expect(r.result).toBe("solved");
    if (r.result === "solved")
      expect(await page.locator("body").getAttribute("data-hint")).toBe(
        moveToString(r.moves[0]!, start),
      );
    await page.selectOption("#kind", "ms");
    await page.fill("#number", "2");
    await page.click("#new");
    await page.waitForFunction(() => document.body.dataset.message === "new deal: Microsoft #2");
    expect(await readDomBoard(page)).toEqual(engineBoard(dealMs(rules, 2)));
    await page.fill("#number", "0");
    await page.click("#new");
    await page.waitForFunction(() => document.getElementById("message")!.className === "error");
    expect(await page.locator("#message").textContent()).toMatch(
      /^--ms must be an integer from 1 to 2147483647, got 0$/,
    );
  });
});

describe.skipIf(missing !== undefined)("play page: double click and a non-Penguin preset", () => {
  const freecell = resolveRules("freecell");
  // The first FreeCell deal whose start lets a column's last card go home.
  const ms = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].find((n) =>
    legalMoves(dealMs(freecell, n)).some((m) => moveFrom(m) < CELL0 && moveTo(m) === FOUNDATION),
  )!;
  let web: WebServer;
  let page: Page;
  beforeAll(async () => {
    browser = await openBrowser();
    web = await startWebServer({
      host: "127.0.0.1",
      port: 0,
      first: { rules: "freecell", ms: String(ms) },
    });
  });
  afterAll(async () => {
    await web?.close();
    await browser?.close();
  });

  it("FreeCell is titled FreeCell and its cells are free cells, not flippers", async () => {
    page = await browser.context.newPage();
    await page.goto(web.url);
    await page.waitForSelector("body[data-ready]");
    expect(await page.locator("#game-title").textContent()).toBe("FreeCell");
    expect(await page.title()).toBe(`FreeCell · Microsoft #${ms}`);
    expect(await page.locator("#cells-label").textContent()).toBe("free cells");
    expect(await page.locator("#board text.label").allTextContents()).toContain("Free cells");
    expect((await page.locator("body > :not(script)").allTextContents()).join(" ")).not.toMatch(
      /flipper/i,
    );
    expect(await page.locator("#status").textContent()).toMatch(/^0 moves · /);
  });

  it("a double click sends a column's last card home; one move is '1 move'", async () => {
    const start = dealMs(freecell, ms);
    const m = legalMoves(start).find((x) => moveFrom(x) < CELL0 && moveTo(x) === FOUNDATION)!;
    const col = moveFrom(m);
    await page.dblclick(`.card[data-col="${col}"][data-row="${start.len[col]! - 1}"]`);
    const after = start.clone();
    applyMove(after, m);
    expect(await page.locator("#message").textContent()).toBe(`played ${moveToString(m, start)}`);
    expect(await readDomBoard(page)).toEqual(engineBoard(after));
    expect(await page.locator("#status").textContent()).toMatch(/^1 move · /);
  });
});
