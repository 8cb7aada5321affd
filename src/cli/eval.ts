import type { CommandModule } from "yargs";
import { UsageError } from "../engine/rules.js";

// Placeholder until the owning area lands its command.
export const evalCommand: CommandModule<object, object> = {
  command: "eval",
  describe: "(not yet available)",
  handler: () => {
    throw new UsageError("penguin eval is not available yet");
  },
};
