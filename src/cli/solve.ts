import type { CommandModule } from "yargs";
import { UsageError } from "../engine/rules.js";

// Placeholder until the owning area lands its command.
export const solveCommand: CommandModule<object, object> = {
  command: "solve",
  describe: "(not yet available)",
  handler: () => {
    throw new UsageError("penguin solve is not available yet");
  },
};
