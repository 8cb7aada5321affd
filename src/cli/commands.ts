import type { CommandModule } from "yargs";
// Each command module is owned by the area it drives; add new ones here.
export const commands: CommandModule<object, any>[] = [];
