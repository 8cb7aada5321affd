import type { CommandModule } from "yargs";
import { UsageError } from "../engine/rules.js";

// Placeholder until the owning area lands its command.
export const mergeCommand: CommandModule<object, object> = {
  command: "merge",
  describe: "(not yet available)",
  handler: () => {
    throw new UsageError("penguin merge is not available yet");
  },
};
