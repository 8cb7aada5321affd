import type { CommandModule } from "yargs";
import { UsageError } from "../engine/rules.js";

// Placeholder until the owning area lands its command.
export const dealCommand: CommandModule<object, object> = {
  command: "deal",
  describe: "(not yet available)",
  handler: () => {
    throw new UsageError("penguin deal is not available yet");
  },
};
