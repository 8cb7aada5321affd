/**
 * `penguin train <algo>`: trains a player into a run folder; `penguin train --resume DIR`
 * continues one. Every algorithm's flags, help and checks come from its one options spec
 * (src/train/algos.ts). See docs/train.md.
 */
import { readdirSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { UsageError } from "../errors.js";
import { ALGO_NAMES, ALGOS, algoSpec, type AlgoSpec } from "../train/algos.js";
import { optionsFrom, yargsOption, type OptionSpecs } from "../train/options.js";
import { isRuleFlag, rulesFromArgs, withRuleOptions, type RuleArgs } from "./common.js";
import { stopOnSignals, stoppedExitCode, stopRequested } from "../train/stop.js";
import { lockFolder } from "../util/lock.js";
import { checkCreatable, makeFolder, removeStaleTemps } from "../util/output.js";
import { printable } from "../util/text.js";
import { flag } from "../options/registry.js";
import { withTfjs } from "../util/tfjs.js";
import { heartbeat } from "./progress.js";
import { runAlgo, TRAINERS, type Trainer } from "../train/trainers.js";

type TrainArgs = RuleArgs &
  Record<string, unknown> & { algo?: string; out?: string; resume?: string };

/** The flags on the command line after `train` (`--no-x` counts as x). */
function givenFlags(): string[] {
  const at = process.argv.indexOf("train");
  return process.argv
    .slice(at + 1)
    .filter((x) => x.startsWith("--"))
    .map((x) => x.slice(2).split("=")[0]!)
    .map((f) => (f.startsWith("no-") ? f.slice(3) : f));
}

/**
 * The algorithm the command line names (`train <algo>` or `--algo <algo>`), undefined for
 * `--resume` (the run folder says) and for a name that is not one (the handler refuses it).
 * yargs builds the options before it parses, so this looks at the raw arguments.
 */
function namedAlgo(): AlgoSpec | undefined {
  const args = process.argv.slice(process.argv.indexOf("train") + 1);
  const flag = args.findIndex((x) => x === "--algo" || x.startsWith("--algo="));
  if (flag >= 0)
    return algoSpec(
      args[flag]!.includes("=") ? args[flag]!.split("=")[1]! : (args[flag + 1] ?? ""),
    );
  if (args[0] !== undefined && !args[0].startsWith("-")) return algoSpec(args[0]);
  return args.some((x) => x === "--resume" || x.startsWith("--resume="))
    ? undefined
    : algoSpec("ppo");
}

const flagList = (flags: readonly string[]): string => flags.map((f) => `--${f}`).join(" ");

/** The options object of `spec` from the parsed flags (every value checked first). */
function parsed(spec: AlgoSpec, a: TrainArgs, only?: readonly string[]): Record<string, unknown> {
  const specs: OptionSpecs = only
    ? Object.fromEntries(Object.entries(spec.options).filter(([f]) => only.includes(f)))
    : spec.options;
  return optionsFrom(specs, a);
}

/**
 * Training runs on TensorFlow.js: load it now (or name what to install when it is missing), and
 * have the run say which backend it uses when it picks one, after its own input checks.
 */
async function announceBackend(): Promise<void> {
  const { announceBackendTo } = await withTfjs(
    "penguin train",
    () => import("../train/backend.js"),
  );
  announceBackendTo((line) => process.stderr.write(`penguin train: ${line}\n`));
}

async function start(spec: AlgoSpec, a: TrainArgs): Promise<void> {
  const wrong = givenFlags().filter(
    (f) =>
      !(f in spec.options) &&
      !["out", "algo", "help"].includes(f) &&
      !(spec.rules && isRuleFlag(f)),
  );
  if (wrong.length)
    throw new UsageError(
      `penguin train ${spec.name} does not use ${flagList(wrong)}; its options: ${flagList(Object.keys(spec.options))} (penguin train ${spec.name} --help)`,
    );
  const o = parsed(spec, a);
  if (!a.out)
    throw new UsageError("name the run folder with --out DIR (or continue one with --resume DIR)");
  const out = a.out;
  if (spec.rules) rulesFromArgs(a); // refuses bad rule flags before the folder and TensorFlow.js
  claimRunFolder(out, "new");
  await announceBackend();
  const summary = await trainerOf(spec).train(o, out, () => rulesFromArgs(a));
  if (summary) console.log(JSON.stringify(summary));
}

/** The algorithm's entry of the dispatch table (src/train/trainers.ts). */
function trainerOf(spec: AlgoSpec): Trainer {
  const t = TRAINERS[spec.name];
  if (!t) throw new Error(`no trainer for algorithm ${spec.name}`);
  return t;
}

/**
 * Checks, creates and locks a run folder before any algorithm touches it: `--out` must be a new
 * folder, an empty one or a run (the algorithm refuses a run it would overwrite), never a
 * file, a device or a folder of other files; `--resume` a folder. The lock keeps a second
 * run off the folder until this process exits; temp files of killed runs are removed.
 */
function claimRunFolder(dir: string, kind: "new" | "resume"): void {
  const what = kind === "new" ? "--out" : "--resume";
  let st: Stats | undefined;
  try {
    st = statSync(dir);
  } catch {}
  if (kind === "resume" && !st)
    throw new UsageError(`--resume ${printable(dir)} does not exist: name a run folder`);
  if (st?.isDirectory() && kind === "new") {
    const own = readdirSync(dir).filter((n) => n !== ".lock");
    if (own.length > 0 && !own.includes("config.json"))
      throw new UsageError(
        `--out ${printable(dir)} exists and is not a run folder (no config.json; it holds ${printable(own.slice(0, 3).join(", "))}${own.length > 3 ? ", …" : ""}): name a new or empty folder`,
      );
  }
  // A new folder is made by the algorithm once its options pass (bad input leaves no folder);
  // here it is only checked that it can be.
  if (!st) {
    checkCreatable(dir, what);
    return;
  }
  makeFolder(dir, what);
  lockFolder(dir);
  removeStaleTemps(dir);
  removeStaleTemps(join(dir, "checkpoint"));
  removeStaleTemps(join(dir, "resume"));
}

async function resume(dir: string, a: TrainArgs): Promise<void> {
  if (givenFlags().includes("algo") || a.algo !== undefined)
    throw new UsageError(
      `--resume continues a run with its own algorithm; leave out the algorithm (${dir} says which)`,
    );
  const name = runAlgo(dir);
  const spec = name === undefined ? undefined : algoSpec(name);
  if (!spec)
    throw new UsageError(
      `${dir} is not a run folder of penguin train (no config.json naming its algorithm)`,
    );
  claimRunFolder(dir, "resume");
  const extra = givenFlags().filter((f) => f !== "resume" && !spec.resumable.includes(f));
  if (extra.length)
    throw new UsageError(
      spec.resumable.length
        ? `a resumed ${spec.name} run keeps its own settings; only ${flagList(spec.resumable)} may change (got ${flagList(extra)})`
        : `a resumed run keeps the settings in ${join(dir, "config.json")}; leave out ${flagList(extra)}`,
    );
  const changes = parsed(spec, a, givenFlags());
  await announceBackend();
  const summary = await trainerOf(spec).resume(dir, changes);
  if (summary) console.log(JSON.stringify(summary));
}

/** `train ppo --algo es` names two algorithms: refused rather than one silently winning. */
function checkOneAlgo(): void {
  const args = process.argv.slice(process.argv.indexOf("train") + 1);
  const names: string[] = [];
  if (args[0] !== undefined && !args[0].startsWith("-")) names.push(args[0]);
  args.forEach((x, i) => {
    if (x === "--algo" && args[i + 1] !== undefined) names.push(args[i + 1]!);
    else if (x.startsWith("--algo=")) names.push(x.slice("--algo=".length));
  });
  if (new Set(names).size > 1)
    throw new UsageError(
      `the algorithm is named twice (${names.map((n) => printable(n)).join(" and ")}): name one, either as \`train <algo>\` or with --algo`,
    );
}

async function handler(a: TrainArgs): Promise<void> {
  checkOneAlgo();
  const dir = a.resume ?? a.out;
  const spec = a.resume === undefined ? algoSpec(a.algo ?? "ppo") : undefined;
  if (a.resume === undefined && !spec)
    throw new UsageError(
      `unknown algorithm ${JSON.stringify(a.algo)}; allowed: ${ALGO_NAMES.join(", ")}`,
    );
  const off = stopOnSignals((line) => process.stderr.write(`penguin train: ${line}\n`));
  // The trainers log at their evaluations, which can be minutes apart: a line every 10 s between.
  const quiet = heartbeat(
    "penguin train",
    dir === undefined ? {} : { rowsOf: join(dir, "metrics.csv") },
  );
  try {
    await (a.resume !== undefined ? resume(a.resume, a) : start(spec!, a));
  } finally {
    quiet();
    off();
  }
  if (stopRequested() && dir !== undefined) {
    process.stderr.write(`penguin train: stopped; \`penguin train --resume ${dir}\` continues\n`);
    process.exitCode = stoppedExitCode() ?? 130;
  }
}

export const trainCommand: CommandModule<object, TrainArgs> = {
  command: "train [algo]",
  describe: `train a player into a run folder: ${ALGOS.map((s) => s.name).join(", ")} (penguin train <algo> --help lists its options)`,
  builder: (y: Argv<object>) => {
    const named = namedAlgo();
    // One algorithm named: its flags only. `--resume DIR`: every algorithm's, checked against the run's own.
    const specs = named ? [named] : ALGOS;
    let b = (specs.some((s) => s.rules) ? withRuleOptions(y) : y) as Argv<object>;
    b = b
      .usage(
        `penguin train <algo> [options]   (or: penguin train --resume DIR)\n\n${ALGOS.map((s) => `  ${s.name.padEnd(7)} ${s.describe} (${s.docs})`).join("\n")}${named ? `\n\nthe options of ${named.name}:` : ""}`,
      )
      .positional("algo", { type: "string" })
      .option("algo", { type: "string", hidden: true })
      .option(
        "out",
        flag("out", {
          detail: "the run folder (config.json, metrics.csv, train.log, curve.svg, checkpoint/)",
        }),
      )
      .option("resume", {
        type: "string",
        describe: "continue the run in this folder from its last checkpoint",
      });
    const done = new Set<string>();
    for (const s of specs)
      for (const [flag, spec] of Object.entries(s.options)) {
        if (done.has(flag)) continue;
        done.add(flag);
        // With every algorithm's flags registered (--resume), their defaults would look given: none.
        const opt = yargsOption(spec);
        b = b.option(flag, named ? opt : { ...opt, default: undefined });
      }
    return b as unknown as Argv<TrainArgs>;
  },
  handler,
};
