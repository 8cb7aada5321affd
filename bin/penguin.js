#!/usr/bin/env node
// The package ships TypeScript; tsx compiles it on the fly so `penguin` works from a fresh clone.
import { register } from "tsx/esm/api";
register();
await import("../src/cli/main.ts");
