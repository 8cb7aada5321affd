// Worker threads do not inherit the parent's TypeScript loader (bin/penguin.js registers tsx
// in-process), so each worker registers tsx itself before loading the TypeScript worker.
import { register } from "tsx/esm/api";
register();
await import("./worker.ts");
