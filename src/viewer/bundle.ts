/**
 * Compiles a page's script (src/viewer/page/*-page.ts, with the engine it imports) for the browser with
 * esbuild, into one minified script that is inlined into the page: no file, no network at view time.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export type PageName = "replay" | "play";

const cache = new Map<PageName, Promise<string>>();

function entryPath(name: PageName): string {
  // From the sources the entry is .ts; from a compiled build it is the .js beside this file.
  for (const ext of [".ts", ".js"]) {
    const p = fileURLToPath(new URL(`./page/${name}-page${ext}`, import.meta.url));
    if (existsSync(p)) return p;
  }
  throw new Error(`the ${name} page's script is missing (src/viewer/page/${name}-page.ts)`);
}

async function build(name: PageName): Promise<string> {
  const esbuild = await import("esbuild");
  const r = await esbuild.build({
    entryPoints: [entryPath(name)],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
  const text = r.outputFiles[0]!.text;
  // Inlined into <script>: a "</script" inside a string literal would end the element early.
  return text.replace(/<\/(script)/gi, "<\\/$1");
}

/** The page's script, built once per process. */
export function pageScript(name: PageName): Promise<string> {
  let p = cache.get(name);
  if (!p) {
    p = build(name);
    cache.set(name, p);
  }
  return p;
}
