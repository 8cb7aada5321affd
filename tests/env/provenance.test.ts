/**
 * Provenance: the package version, the git commit of this clone and the env ids with versions,
 * recorded in eval and experiment sidecars (X.meta.json beside X.csv) and in run folders.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { provenance, sidecarPath } from "../../src/env/provenance.js";
import { envIdForPreset, resolveRules, runEval, seedRange } from "../../src/index.js";
import { runExperiment } from "../../experiments/lib/runner.js";
import { fakeExperiment } from "../experiments/fixtures/fake-experiment.js";

const root = join(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  name: string;
  version: string;
};
/** { "Penguin-v1": 1 }: the id and the version its name carries. */
const idOf = (preset: string): Record<string, number> => {
  const id = envIdForPreset(preset);
  return { [id]: Number(/-v(\d+)$/.exec(id)![1]) };
};
const dir = mkdtempSync(join(tmpdir(), "penguin-prov-"));

describe("provenance", () => {
  it("names the package version, this clone's commit and the env ids with versions", () => {
    const p = provenance(["penguin", "freecell", envIdForPreset("penguin")]);
    expect(p.package).toBe(pkg.name);
    expect(p.version).toBe(pkg.version);
    expect(p.envIds).toEqual({ ...idOf("penguin"), ...idOf("freecell") });
    if (existsSync(join(root, ".git")))
      expect(p.commit).toBe(
        execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim(),
      );
    expect(() => provenance(["no-such-preset"])).toThrow(/unknown rules "no-such-preset"/);
  });

  it("penguin eval's CSV gets a sidecar; resuming with the same code adds no second entry", async () => {
    const out = join(dir, "greedy.csv");
    const spec = {
      agent: "greedy",
      agentOptions: { heuristic: "parlett" },
      rules: resolveRules("penguin", { cells: 5 }),
      deals: seedRange(1, 3),
      out,
    };
    await runEval(spec);
    await runEval({ ...spec, deals: seedRange(1, 5) });
    const meta = JSON.parse(readFileSync(sidecarPath(out), "utf8")) as {
      csv: string;
      rules: string;
      agent: string;
      runs: { version: string; envIds: object }[];
    };
    expect(sidecarPath(out)).toBe(join(dir, "greedy.meta.json"));
    expect(meta.csv).toBe("greedy.csv");
    expect(meta.rules).toBe("penguin[cells=5]");
    expect(meta.agent).toBe("greedy(parlett)");
    expect(meta.runs).toHaveLength(1);
    expect(meta.runs[0]!.version).toBe(pkg.version);
    expect(meta.runs[0]!.envIds).toEqual(idOf("penguin"));
  });

  it("an experiment's CSV and summary get one", async () => {
    const out = join(dir, "fake.csv");
    await runExperiment(fakeExperiment, ["--quiet", "--deals", "4", "--out", out]);
    expect(existsSync(join(dir, "fake.summary.csv"))).toBe(true);
    const meta = JSON.parse(readFileSync(join(dir, "fake.meta.json"), "utf8")) as {
      experiment: string;
      conditions: { rules: string }[];
      runs: { envIds: object }[];
    };
    expect(meta.experiment).toBe("fake");
    expect(meta.conditions.map((c) => c.rules)).toEqual(["penguin[cells=3]", "penguin", "penguin"]);
    expect(meta.runs[0]!.envIds).toEqual(idOf("penguin"));
  });
});
