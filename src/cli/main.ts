/**
 * The `penguin` command. Each subcommand lives in its own file; this one only wires them up and
 * turns bad input into one line on stderr and exit code 2 (never a stack trace).
 */
import yargs, { type MiddlewareFunction } from "yargs";
import { hideBin } from "yargs/helpers";
import { UsageError } from "../errors.js";
import { IllegalMoveError } from "../errors.js";
import { commands } from "./commands.js";
import { checkRawArgs, type OptionKinds } from "./common.js";
import { messageLine } from "../util/text.js";
import { RENAMED, renameFlags } from "../options/registry.js";

function die(message: string, code: number): never {
  // Messages may quote file contents or arguments: control characters are escaped.
  process.stderr.write(`penguin: ${messageLine(message)}\n`);
  process.exit(code);
}

/**
 * A reader that closed our output early (`penguin solve | head -c1`) ends the command quietly,
 * with the exit code a process stopped by SIGPIPE has (128 + 13), as other Unix tools do; any
 * resumable output it was writing keeps its complete rows and its lock goes with the exit.
 */
const EPIPE_EXIT = 141;
const isEpipe = (e: unknown): boolean => (e as { code?: string } | null)?.code === "EPIPE";
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (e) => {
    if (isEpipe(e)) process.exit(EPIPE_EXIT);
    throw e;
  });

/** The RENAMED entry of the command line's command ("train <algo>" per algorithm). */
function renamesOf(argv: readonly string[]): Readonly<Record<string, string>> | undefined {
  const cmd = argv.find((t) => !t.startsWith("-"));
  if (cmd !== "train") return cmd === undefined ? undefined : RENAMED[cmd];
  const rest = argv.slice(argv.indexOf("train") + 1);
  const flagAt = rest.findIndex((x) => x === "--algo" || x.startsWith("--algo="));
  const algo =
    flagAt >= 0
      ? rest[flagAt]!.includes("=")
        ? rest[flagAt]!.split("=")[1]
        : rest[flagAt + 1]
      : rest[0] !== undefined && !rest[0].startsWith("-")
        ? rest[0]
        : rest.some((x) => x === "--resume" || x.startsWith("--resume="))
          ? undefined
          : "ppo";
  if (algo !== undefined) return RENAMED[`train ${algo}`];
  // --resume: the run folder says which algorithm; any train rename may apply.
  return Object.assign(
    {},
    ...Object.entries(RENAMED)
      .filter(([k]) => k.startsWith("train "))
      .map(([, v]) => v),
  );
}

/** Old flag names become new ones, with one notice line each. */
function modernize(argv: string[]): string[] {
  return renameFlags(argv, renamesOf(argv), (line) =>
    process.stderr.write(`penguin: note: ${line}\n`),
  );
}

export async function main(raw: string[]): Promise<void> {
  const argv = modernize(raw);
  // Commands that look at the raw command line (penguin train) see the current names too.
  if (argv.some((t, i) => t !== raw[i])) process.argv.splice(2, Infinity, ...argv);
  // yargs hands middleware the parser of the command being run as a second argument.
  const rawCheck = (_: unknown, y: { getOptions(): OptionKinds }): void =>
    checkRawArgs(argv, y.getOptions());
  // Flags keep their dashed names only: no camelCase twins, so an unknown flag is named once.
  let cli = yargs(argv)
    .scriptName("penguin")
    .parserConfiguration({ "camel-case-expansion": false });
  for (const c of commands) cli = cli.command(c);
  try {
    await cli
      .demandCommand(
        1,
        `name a command: ${commands.map((c) => String(c.command).split(" ")[0]).join(", ")}`,
      )
      .strict()
      // Before yargs' own checks: repeated options, missing values, non-numbers, booleans.
      .middleware(rawCheck as MiddlewareFunction, true)
      .help()
      .fail((msg, err) => {
        if (err) throw err;
        die(msg ?? "bad arguments (see --help)", 2);
      })
      .parseAsync();
  } catch (e) {
    if (isEpipe(e)) process.exit(EPIPE_EXIT);
    if (e instanceof UsageError || e instanceof IllegalMoveError) die(e.message, 2);
    if (e instanceof Error) die(e.message, 1);
    die(String(e), 1);
  }
}

await main(hideBin(process.argv));
