// Worker threads do not inherit the parent's TypeScript loader, so each registers tsx itself.
import { register } from "tsx/esm/api";
register();
await import("./worker.ts");
