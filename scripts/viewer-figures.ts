/**
 * The viewer's figures: page sizes, load time and frame time when stepping, measured in headless
 * chromium, and the README screenshot (docs/viewer.png). Wall-clock figures: run on a quiet machine.
 *
 *   npx tsx scripts/viewer-figures.ts [--shot docs/viewer.png]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveRules } from "../src/engine/rules.js";
import { replayHtml } from "../src/viewer/html.js";
import { buildReplay } from "../src/viewer/record.js";
import { startWebServer } from "../src/viewer/server.js";
import { browserMissing, openBrowser } from "../tests/viewer/browser.js";

const shot = process.argv.includes("--shot")
  ? process.argv[process.argv.indexOf("--shot") + 1]
  : undefined;
const missing = browserMissing();
if (missing) {
  console.error(missing);
  process.exit(2);
}
const rules = resolveRules("penguin");
const dir = mkdtempSync(join(tmpdir(), "penguin-figures-"));
const browser = await openBrowser();
const quantile = (xs: number[], q: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const out: Record<string, unknown> = {};
try {
  for (const seed of [3, 1]) {
    const data = await buildReplay({ rules, deal: { kind: "seed", seed }, agent: "greedy" });
    const html = await replayHtml(data);
    const path = join(dir, `${seed}.html`);
    writeFileSync(path, html);
    const loads: number[] = [];
    let page = await browser.context.newPage();
    for (let i = 0; i < 5; i++) {
      await page.goto(`file://${path}`);
      await page.waitForSelector("body[data-ready]");
      loads.push(Number(await page.locator("body").getAttribute("data-ready-ms")));
    }
    // Step through the game; each step waits for the next frame, so the interval covers the
    // script, style, layout and paint of the new position.
    const steps = Math.min(data.moves.length, 300);
    const frames = await page.evaluate(async (n) => {
      const fwd = document.getElementById("forward")!;
      const ms: number[] = [];
      const script: number[] = [];
      await new Promise((r) => requestAnimationFrame(r));
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        fwd.click();
        script.push(Number(document.body.dataset.renderMs));
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        ms.push(performance.now() - t0);
      }
      return { ms, script };
    }, steps);
    out[`replay seed ${seed}`] = {
      moves: data.moves.length,
      bytes: Buffer.byteLength(html),
      loadMsMedian: quantile(loads, 0.5),
      stepFrameMsMedian: +quantile(frames.ms, 0.5).toFixed(1),
      stepFrameMsP95: +quantile(frames.ms, 0.95).toFixed(1),
      stepScriptMsMedian: +quantile(frames.script, 0.5).toFixed(2),
      steps,
    };
    if (shot && seed === 3) {
      const w = data.winnable;
      await page.close();
      page = await browser.context.newPage();
      await page.setViewportSize({ width: 1000, height: 720 });
      await page.goto(`file://${path}`);
      await page.waitForSelector("body[data-ready]");
      if (w?.kind === "move") await page.locator(`#moves li[data-index="${w.index}"]`).click();
      await page.screenshot({ path: shot, clip: { x: 0, y: 0, width: 1000, height: 640 } });
      out.screenshot = shot;
    }
    await page.close();
  }
  const web = await startWebServer({
    host: "127.0.0.1",
    port: 0,
    first: { rules: "penguin", seed: "1" },
  });
  const page = await browser.context.newPage();
  const res = await page.goto(web.url);
  await page.waitForSelector("body[data-ready]");
  out["play page"] = {
    bytes: (await res!.body()).length,
    loadMs: Number(await page.locator("body").getAttribute("data-ready-ms")),
  };
  await web.close();
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(out, null, 1));
