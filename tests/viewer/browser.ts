/**
 * A real headless browser for the viewer's tests: Debian's chromium driven by playwright-core
 * (no browser download). When there is none, `browserMissing()` says why, and the tests that need
 * it are skipped with that reason printed.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function browserMissing(): string | undefined {
  if (!existsSync(CHROMIUM))
    return `no browser at ${CHROMIUM} (install Debian's chromium: apt-get install -y chromium)`;
  return undefined;
}

export interface TestBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

export async function openBrowser(): Promise<TestBrowser> {
  const { chromium } = await import("playwright-core");
  // A fresh profile per run (--user-data-dir), removed afterwards.
  const profile = mkdtempSync(join(tmpdir(), "penguin-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The picture as the page shows it, read from the board's SVG: card names by place. */
export interface DomBoard {
  columns: string[][];
  cells: (string | null)[];
  /** Cards on each foundation, C D H S. */
  found: number[];
  home: number;
}

export function readDomBoard(page: Page): Promise<DomBoard> {
  return page.evaluate(() => {
    const svg = document.querySelector("#board svg")!;
    const columns: string[][] = [];
    for (const g of svg.querySelectorAll<SVGGElement>('.card[data-where="col"]')) {
      const c = Number(g.dataset.col);
      (columns[c] ??= [])[Number(g.dataset.row)] = g.dataset.card!;
    }
    const nCols = svg.querySelectorAll("rect.column").length;
    for (let c = 0; c < nCols; c++) columns[c] ??= [];
    const cells: (string | null)[] = [];
    for (const g of svg.querySelectorAll<SVGGElement>('[data-where="cell"]'))
      cells[Number(g.dataset.cell)] = g.classList.contains("card") ? g.dataset.card! : null;
    const found = [...svg.querySelectorAll<SVGGElement>("[data-suit]")].map((g) =>
      Number(g.dataset.count),
    );
    const home = Number(svg.querySelector<SVGElement>("[data-home]")!.dataset.home);
    return { columns, cells, found, home };
  });
}
