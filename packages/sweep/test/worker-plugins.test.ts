/**
 * A Redis worker (`runQueued`, what `cclab worker` runs for each job) loads only the plugins it
 * finds from its own working directory: a job's `baseDir` and absolute paths cannot make it
 * import a file from elsewhere (issue 34). Local sweeps (`run`) resolve from the sweep's folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { PointTask } from "../src/run-point.js";
import run, { runQueued } from "../src/worker.js";
import { TINY } from "./fixtures.js";

const zodUrl = pathToFileURL(createRequire(import.meta.url).resolve("zod")).href;
const ran = () => (globalThis as { cclabWorkerRan?: string[] }).cclabWorkerRan ?? [];

/** A folder as a job names it: not the worker's working directory. */
const payloadDir = mkdtempSync(join(tmpdir(), "cclab-worker-plugins-"));
afterAll(() => rmSync(payloadDir, { recursive: true, force: true }));
for (const name of ["payload-abs", "payload-rel", "local-rel"]) {
  writeFileSync(
    join(payloadDir, `${name}.mjs`),
    `import { z } from ${JSON.stringify(zodUrl)};
(globalThis.cclabWorkerRan ??= []).push(${JSON.stringify(name)});
export default { name: ${JSON.stringify(name)}, description: "d", params: z.strictObject({}), create: () => ({ specVersion: 2, name: ${JSON.stringify(name)} }) };
`,
  );
}

const task = (plugins: string[]): PointTask => ({
  sweep: "plugins",
  pointId: "p",
  document: { ...TINY, plugins },
  baseDir: payloadDir,
  keepSeries: false,
});

describe("plugins on a Redis worker", () => {
  it("refuses a file outside its working directory, absolute or relative to the job's baseDir", async () => {
    const outcome = await runQueued(
      task([join(payloadDir, "payload-abs.mjs"), "./payload-rel.mjs"]),
    );
    expect(outcome.status).toBe("failed");
    const error = (outcome as { error: string }).error;
    expect(error).toContain(
      `plugins[0]: "${join(payloadDir, "payload-abs.mjs")}" is outside ${process.cwd()}`,
    );
    expect(error).toContain(
      `plugins[1]: cannot find "./payload-rel.mjs" (no file ${join(process.cwd(), "payload-rel.mjs")})`,
    );
    expect(ran()).toEqual([]);
  });

  it("loads a plugin file inside its working directory", async () => {
    const toy = fileURLToPath(new URL("../../sim/test/fixtures/toy-plugins.ts", import.meta.url));
    const outcome = await runQueued(task([`./${relative(process.cwd(), toy)}`]));
    expect(outcome.status).toBe("complete");
  });
});

describe("plugins on a local sweep's threads", () => {
  it("resolve from the sweep file's folder", async () => {
    const outcome = await run(task(["./local-rel.mjs"]));
    expect(outcome.status).toBe("complete");
    expect(ran()).toEqual(["local-rel"]);
  });
});
