import type { CommandModule } from "yargs";
import { dealCommand } from "./deal.js";
import { playCommand } from "./play.js";
import { solveCommand } from "./solve.js";
import { evalCommand } from "./eval.js";
import { trainCommand } from "./train.js";
import { mergeCommand } from "./merge.js";
import { compareCommand } from "./compare.js";
import { replayCommand } from "./replay.js";
import { webCommand } from "./web.js";
import { datasetCommand } from "./dataset.js";

// Each command module is owned by the area it drives (see the file names).
// biome-ignore lint/suspicious/noExplicitAny: yargs' builder types differ per command
export const commands: CommandModule<object, any>[] = [
  dealCommand,
  playCommand,
  solveCommand,
  evalCommand,
  trainCommand,
  mergeCommand,
  compareCommand,
  replayCommand,
  webCommand,
  datasetCommand,
];
