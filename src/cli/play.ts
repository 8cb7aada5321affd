import type { CommandModule } from "yargs";
import { UsageError } from "../engine/rules.js";

// Placeholder until the owning area lands its command.
export const playCommand: CommandModule<object, object> = {
  command: "play",
  describe: "(not yet available)",
  handler: () => {
    throw new UsageError("penguin play is not available yet");
  },
};
