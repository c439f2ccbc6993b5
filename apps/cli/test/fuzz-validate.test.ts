/**
 * Fuzzing `cclab validate` as a process (issue 34): seeded mutations of the shipped scenarios
 * (packages/sim/test/fuzz-mutations.ts) written to files and given with their `--set`s. Every
 * run exits 0 or 2, prints no stack trace and takes under 5 s.
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mutations } from "../../../packages/sim/test/fuzz-mutations.js";
import { scratchDir } from "../../../packages/sim/test/scratch-dir.js";
import { testBundles } from "../../../packages/sweep/test/bundles.js";

const COUNT = 50;
const SEED = 3434;
const LIMIT_MS = 5000;
const dir = scratchDir("cclab-fuzz-");
let cli: string;

beforeAll(async () => {
  cli = (await testBundles()).cli;
}, 120_000);

interface Outcome {
  code: number | null;
  stderr: string;
  ms: number;
}

function validate(file: string, set: readonly string[]): Promise<Outcome> {
  const args = [cli, "validate", file, ...set.flatMap((s) => ["--set", s])];
  const t0 = performance.now();
  return new Promise((done) => {
    execFile(
      process.execPath,
      args,
      { encoding: "utf8", timeout: 30_000, maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        done({ code, stderr, ms: performance.now() - t0 });
      },
    );
  });
}

describe("cclab validate on fuzzed scenarios", () => {
  it(`${COUNT} mutations exit 0 or 2, without a stack trace, each under ${LIMIT_MS / 1000} s`, async () => {
    const cases = mutations(COUNT, SEED).map((m, i) => {
      // Each case in a folder of its own, with the trace files its scenario reads.
      const caseDir = join(dir, `c${i}`);
      mkdirSync(caseDir);
      for (const f of readdirSync(m.baseDir).filter((f) => f.endsWith(".csv"))) {
        copyFileSync(join(m.baseDir, f), join(caseDir, f));
      }
      const file = join(caseDir, basename(m.fileName));
      writeFileSync(file, m.text);
      return { m, file };
    });
    const failures: string[] = [];
    const codes: Record<string, number> = {};
    // One at a time, so a case's time is its own (each process costs about 1 s of CPU).
    for (const { m, file } of cases) {
      const out = await validate(file, m.set);
      codes[String(out.code)] = (codes[String(out.code)] ?? 0) + 1;
      const where = `${basename(m.fileName)}: ${m.what}`;
      if (out.code !== 0 && out.code !== 2)
        failures.push(`${where}: exit ${out.code}\n${out.stderr}`);
      if (/^\s{4}at /m.test(out.stderr)) failures.push(`${where}: stack trace\n${out.stderr}`);
      if (out.ms > LIMIT_MS) failures.push(`${where}: took ${Math.round(out.ms)} ms`);
    }
    expect(failures).toEqual([]);
    expect(codes["2"]).toBeGreaterThan(COUNT / 2);
  }, 300_000);
});
