/**
 * Bundles of the sweep worker and the `cclab` command built from sources for tests that start
 * worker threads or processes (tests otherwise run sources through vitest, which a new thread
 * or process does not have). Written to `<repo>/.test-build/<pid>/`, so the packages left external
 * (native or loading files beside themselves) resolve from the repository's node_modules;
 * `worker.js` sits beside `cli.js` because the bundled sweep package looks for it there.
 */
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** One directory per test process: test files build concurrently and must not share files. */
export const TEST_BUILD_DIR = `${ROOT}.test-build/${process.pid}`;

let built: Promise<{ cli: string; worker: string }> | undefined;

export function testBundles(): Promise<{ cli: string; worker: string }> {
  if (built === undefined) {
    process.once("exit", () => rmSync(TEST_BUILD_DIR, { recursive: true, force: true }));
  }
  built ??= build({
    entryPoints: {
      cli: `${ROOT}apps/cli/src/cli.ts`,
      worker: `${ROOT}packages/sweep/src/worker.ts`,
    },
    outdir: TEST_BUILD_DIR,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["@cclab/source"],
    // Left out: a native addon, and packages that load files from beside themselves.
    external: ["tinypool", "bullmq", "ioredis", "@resvg/resvg-js", "dejavu-fonts-ttf"],
    banner: {
      js: "import { createRequire as __cclabRequire } from 'node:module'; const require = __cclabRequire(import.meta.url);",
    },
    logLevel: "warning",
  }).then(() => ({ cli: `${TEST_BUILD_DIR}/cli.js`, worker: `${TEST_BUILD_DIR}/worker.js` }));
  return built;
}
