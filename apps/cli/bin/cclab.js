#!/usr/bin/env node
// The `cclab` command. A file of the source tree, not of dist/, so that `npm ci` links it
// into node_modules/.bin before anything is built (npm links no bin whose file is missing);
// it runs the built command.
import { existsSync } from "node:fs";

const built = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(built)) {
  process.stderr.write("cclab is not built yet: run `npm run build` first\n");
  process.exit(1);
}
await import(built.href);
