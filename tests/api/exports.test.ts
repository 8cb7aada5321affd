/**
 * The API report: the sorted export list of each entry point is checked in (main.exports.txt,
 * train.exports.txt), as chess.js does. Changing the public API means changing that file on
 * purpose: run `UPDATE_API=1 npx vitest run tests/api` and review the diff.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { build } from "esbuild";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const ENTRIES = [
  { name: "main", source: "src/index.ts" },
  { name: "train", source: "src/train/index.ts" },
] as const;

/** "value name" or "type name" for every export of each entry, sorted by name. */
function exportLists(): Map<string, string[]> {
  const files = ENTRIES.map((e) => join(root, e.source));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
  });
  const checker = program.getTypeChecker();
  const out = new Map<string, string[]>();
  for (const [i, e] of ENTRIES.entries()) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(files[i]!)!)!;
    const lines = checker.getExportsOfModule(module).map((s) => {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      return `${target.flags & ts.SymbolFlags.Value ? "value" : "type "} ${s.name}`;
    });
    out.set(
      e.name,
      lines.sort((a, b) => (a.slice(6) < b.slice(6) ? -1 : a.slice(6) > b.slice(6) ? 1 : 0)),
    );
  }
  return out;
}

describe("API report", () => {
  const lists = exportLists();
  for (const e of ENTRIES) {
    it(`${e.source} exports exactly the names in tests/api/${e.name}.exports.txt`, async () => {
      const file = join(root, "tests/api", `${e.name}.exports.txt`);
      const lines = lists.get(e.name)!;
      if (process.env.UPDATE_API) writeFileSync(file, `${lines.join("\n")}\n`);
      expect(`${lines.join("\n")}\n`).toBe(readFileSync(file, "utf8"));
      // The module's run-time exports are exactly the listed values.
      const mod = (await import(join(root, e.source))) as Record<string, unknown>;
      const values = lines.filter((l) => l.startsWith("value")).map((l) => l.slice(6));
      expect(Object.keys(mod).sort()).toEqual([...values].sort());
    });
  }

  it("the main entry stays small and keeps internals out", () => {
    const names = lists.get("main")!.map((l) => l.slice(6));
    for (const internal of [
      "ZOBRIST_LO",
      "ZOBRIST_HI",
      "Tables",
      "tablesFor",
      "guardMask",
      "copyInto",
      "runLength",
      "FeatureScratch",
      "train",
      "initBackend",
    ])
      expect(names).not.toContain(internal);
    for (const needed of [
      "makeEnv",
      "VecEnv",
      "checkEnv",
      "ENV_IDS",
      "resolveRules",
      "deal",
      "dealMs",
      "legalMoves",
      "moveToString",
      "parseMove",
      "parseBoard",
      "createAgent",
      "solve",
      "evaluate",
      "runEval",
      "wilson",
    ])
      expect(names).toContain(needed);
  });

  it("the package leaves out only modules that nothing it runs can load", async () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { files: string[] };
    const left = pkg.files
      .filter((f) => f.startsWith("!dist/"))
      .map((f) => f.slice("!dist/".length).replace(/\.js$/, ".ts"));
    expect(left.length).toBeGreaterThan(0);
    // Everything the package runs: its entries, the CLI, worker threads and the viewer's page
    // scripts (the registry's lazily loaded agents are static import()s the bundler follows).
    const src = readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" }).map(
      (f) => `src/${f}`,
    );
    const entries = [
      "src/index.ts",
      "src/train/index.ts",
      "src/cli/main.ts",
      ...src.filter(
        (f) => f.endsWith("/worker.ts") || (f.startsWith("src/viewer/page/") && f.endsWith(".ts")),
      ),
    ];
    const r = await build({
      entryPoints: entries.map((e) => join(root, e)),
      absWorkingDir: root,
      bundle: true,
      write: false,
      metafile: true,
      platform: "node",
      format: "esm",
      packages: "external",
      splitting: true,
      outdir: "/nonexistent",
      logLevel: "silent",
    });
    const reached = new Set(Object.keys(r.metafile.inputs));
    for (const f of left)
      expect(reached.has(f), `${f} is left out of the package but can be loaded`).toBe(false);
  });
});
