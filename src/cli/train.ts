import type { CommandModule } from "yargs";
import { UsageError } from "../engine/rules.js";

// Placeholder until the owning area lands its command.
export const trainCommand: CommandModule<object, object> = {
  command: "train",
  describe: "(not yet available)",
  handler: () => {
    throw new UsageError("penguin train is not available yet");
  },
};
