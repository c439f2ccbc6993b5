/**
 * Bundles of the sweep worker and the `cclab` command built from sources for tests that start
 * worker threads or processes (tests otherwise run sources through vitest, which a new thread
 * or process does not have). Written to `<repo>/.test-build/`, so the packages left external
 * (native or loading files beside themselves) resolve from the repository's node_modules;
 * `worker.js` sits beside `cli.js` because the bundled sweep package looks for it there.
 */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const TEST_BUILD_DIR = `${ROOT}.test-build`;

let built: Promise<{ cli: string; worker: string }> | undefined;

export function testBundles(): Promise<{ cli: string; worker: string }> {
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
    external: [
      "tinypool",
      "bullmq",
      "ioredis",
      "@resvg/resvg-js",
      "vega",
      "vega-lite",
      "dejavu-fonts-ttf",
    ],
    banner: {
      js: "import { createRequire as __cclabRequire } from 'node:module'; const require = __cclabRequire(import.meta.url);",
    },
    logLevel: "warning",
  }).then(() => ({ cli: `${TEST_BUILD_DIR}/cli.js`, worker: `${TEST_BUILD_DIR}/worker.js` }));
  return built;
}
