/**
 * Provenance of a result: which package version (and git commit, in a clone) made it, under
 * which environment ids. Run folders' config.json, experiment and eval sidecars record it, so a
 * number can always be traced to the code and the game version behind it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MiB, readTextFile } from "../util/read.js";
import { writeOutput } from "../util/output.js";
import { envIdForPreset, ENV_SPECS, type EnvId } from "./registry.js";

export interface Provenance {
  readonly package: string;
  readonly version: string;
  /** The git commit of the package's own clone; absent for an installed package. */
  readonly commit?: string;
  /** True when that clone had uncommitted changes. */
  readonly dirty?: boolean;
  readonly node: string;
  /** Environment ids (with their versions) of the rule presets involved, e.g. { "Penguin-v1": 1 }. */
  readonly envIds: Readonly<Record<string, number>>;
}

let cached: Omit<Provenance, "envIds"> | undefined;

/** The package folder: the nearest parent of this file with penguin-gym's package.json. */
export function packageRoot(): { dir: string; name: string; version: string } {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const p = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (p.name === "penguin-gym") return { dir, name: p.name, version: p.version ?? "unknown" };
    }
    if (dirname(dir) === dir) return { dir, name: "penguin-gym", version: "unknown" };
  }
}

function git(dir: string, args: string[]): string | undefined {
  try {
    return execFileSync("git", args, {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 5000,
    }).trim();
  } catch {
    return undefined;
  }
}

/** Provenance for results played under the given presets (or env ids). */
export function provenance(presets: Iterable<string>): Provenance {
  if (!cached) {
    const root = packageRoot();
    // Only the package's own clone: an installed copy inside someone else's repository must not
    // report that repository's commit.
    const commit = existsSync(join(root.dir, ".git"))
      ? git(root.dir, ["rev-parse", "HEAD"])
      : undefined;
    const dirty =
      commit === undefined
        ? undefined
        : (git(root.dir, ["status", "--porcelain", "--untracked-files=no"]) ?? "") !== "";
    cached = {
      package: root.name,
      version: root.version,
      ...(commit ? { commit, dirty } : {}),
      node: process.version,
    };
  }
  const envIds: Record<string, number> = {};
  for (const p of presets) {
    const id: EnvId = p in ENV_SPECS ? (p as EnvId) : envIdForPreset(p);
    envIds[id] = ENV_SPECS[id].version;
  }
  return { ...cached, envIds };
}

/**
 * The sidecar of a result file (X.csv → X.meta.json): what the file holds plus the provenance of
 * every run that wrote to it (a resumed file lists each distinct one, oldest first).
 */
export function sidecarPath(csvPath: string): string {
  return `${csvPath.replace(/\.csv$/, "")}.meta.json`;
}

export interface Sidecar {
  readonly [key: string]: unknown;
  readonly runs: readonly Provenance[];
}

/** The sidecar's text: `about` plus the runs already recorded in `previous` text and `p` if new. */
function sidecarText(
  about: Readonly<Record<string, unknown>>,
  p: Provenance,
  previous?: string,
): string {
  let runs: Provenance[] = [];
  if (previous !== undefined) {
    try {
      const old = JSON.parse(previous) as Partial<Sidecar>;
      if (Array.isArray(old.runs)) runs = old.runs as Provenance[];
    } catch {
      // A damaged sidecar is replaced: the CSV itself is the result, the sidecar only describes it.
    }
  }
  const last = runs[runs.length - 1];
  if (!last || JSON.stringify(last) !== JSON.stringify(p)) runs.push(p);
  return `${JSON.stringify({ ...about, runs }, null, 2)}\n`;
}

/**
 * Writes the sidecar of `csvPath` (see sidecarPath): `about` plus this run's provenance, keeping
 * the runs an earlier sidecar recorded.
 */
export function writeSidecar(
  csvPath: string,
  about: Readonly<Record<string, unknown>>,
  presets: Iterable<string>,
): void {
  const path = sidecarPath(csvPath);
  const previous = existsSync(path)
    ? readTextFile(path, { maxBytes: MiB, what: "sidecar" })
    : undefined;
  writeOutput(path, sidecarText(about, provenance(presets), previous), { what: "sidecar" });
}
