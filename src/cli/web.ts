/**
 * `penguin web`: play any preset in the browser, on the engine compiled for the page.
 *
 *   penguin web                      # http://127.0.0.1:8765/
 *   penguin web --port 9000 --rules freecell --ms 1
 *
 * The server binds to 127.0.0.1 unless --host says otherwise, and serves only the page and its
 * deal and hint endpoints (src/viewer/server.ts). Ctrl-C stops it.
 */
import type { Argv, CommandModule } from "yargs";
import { UsageError } from "../errors.js";
import { MS_MAX } from "../engine/deal.js";
import { flag } from "../options/registry.js";
import { startWebServer } from "../viewer/server.js";
import { checkRange, withRuleOptions, type RuleArgs } from "./common.js";

interface WebArgs extends RuleArgs {
  port: number;
  host: string;
  seed?: string;
  ms?: number;
}

const DEFAULT_PORT = 8765;

export const webCommand: CommandModule<object, WebArgs> = {
  command: "web",
  describe:
    "play in the browser: a local page on 127.0.0.1 (--port P), with drag and drop, undo and hints",
  builder: (y: Argv) =>
    withRuleOptions(y)
      .option("port", {
        type: "number",
        default: DEFAULT_PORT,
        describe: "TCP port, 1..65535 (0 = any free port)",
      })
      .option("host", {
        type: "string",
        default: "127.0.0.1",
        describe:
          "address to bind; anything but 127.0.0.1/localhost/::1 exposes the page to your network",
      })
      .option("seed", flag("seed", { detail: "the first deal shown (default 1)" }))
      .option("ms", flag("ms", { detail: "the first deal shown, instead of --seed" })) as never,
  handler: async (a) => {
    if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65535)
      throw new UsageError(`--port must be an integer from 0 to 65535, got ${a.port}`);
    if (a.host.trim() === "") throw new UsageError("--host needs an address, e.g. 127.0.0.1");
    if (a.seed !== undefined && a.ms !== undefined)
      throw new UsageError("give either --seed or --ms, not both");
    if (a.ms !== undefined) checkRange("ms", a.ms, { min: 1, max: MS_MAX, integer: true });
    const first: Record<string, string> = { rules: a.rules };
    if (a.cells !== undefined) first.cells = String(a.cells);
    for (const k of ["empty", "group-move", "build", "base", "deal"] as const)
      if (a[k] !== undefined) first[k] = String(a[k]);
    if (a.ms !== undefined) first.ms = String(a.ms);
    else first.seed = a.seed ?? "1";
    const web = await startWebServer({ host: a.host, port: a.port, first });
    if (!["127.0.0.1", "localhost", "::1"].includes(a.host))
      process.stderr.write(
        `penguin web: warning: --host ${a.host} serves the page to other machines and turns off the check that requests name this machine; use 127.0.0.1 to keep it local\n`,
      );
    process.stdout.write(`penguin web: open ${web.url}  (Ctrl-C stops)\n`);
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.stdout.write("\n");
        void web.close().then(resolve);
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
  },
};
