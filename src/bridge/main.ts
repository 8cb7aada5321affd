/**
 * Entry point of the Python bridge: `node dist/src/bridge/main.js` serves one environment on
 * stdin/stdout until stdin closes (the Python package starts it; docs/python.md). Stdout carries
 * only protocol frames, so anything logged goes to stderr instead.
 */
import { Console } from "node:console";
import { serve } from "./serve.js";

globalThis.console = new Console(process.stderr, process.stderr);
try {
  serve(0, 1);
} catch (e) {
  process.stderr.write(`penguin bridge: ${e instanceof Error ? (e.stack ?? e.message) : e}\n`);
  process.exit(1);
}
