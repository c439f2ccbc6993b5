/**
 * Issue 34: `cclab run` exits 1 when a run breaks an invariant, seen during the run
 * (run.checkInvariants periodic, the default, or every-event) or at its end, with stderr naming
 * the invariant, the time and the place, run.json "failed" and no summary.json.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { scratchDir } from "../../../packages/sim/test/scratch-dir.js";
import { EXIT, main } from "../src/index.js";
import { capture } from "./capture.js";

const BREAKER = fileURLToPath(
  new URL("../../../packages/sim/test/fixtures/invariant-breaking-plugin.ts", import.meta.url),
);

const dir = scratchDir("cclab-invariants-");

// The fixture's switch part breaks credit conservation on S0's port to H1 with the first
// packet (0.25 µs); `broken-size-repaired` restores it with the second, sent at 200 µs.
function scenarioFile(plugin: string): string {
  const file = join(dir, `${plugin}.yaml`);
  writeFileSync(
    file,
    stringify({
      name: plugin,
      plugins: [BREAKER],
      topology: { kind: "single-switch", hosts: 3, rateGbps: 10, latencyNs: 100 },
      traffic: [
        {
          pattern: "scheduled",
          flows: [
            { src: 0, dst: 1, totalBytes: 1024, messageBytes: 1024 },
            { src: 2, dst: 1, startNs: 200_000, totalBytes: 1024, messageBytes: 1024 },
          ],
        },
      ],
      run: { durationUs: 400 },
      cc: { switch: { plugin } },
    }),
  );
  return file;
}

async function run(plugin: string, mode: string, name: string) {
  const c = capture();
  const out = join(dir, name);
  const argv = ["run", scenarioFile(plugin), "--out", out, "--quiet", "--no-plots"];
  const code = await main(
    mode === "default" ? argv : [...argv, "--set", `run.checkInvariants=${mode}`],
    c.io,
  );
  const runJson = JSON.parse(readFileSync(join(out, "run.json"), "utf8")) as {
    status: string;
    reason?: string;
  };
  return { code, err: c.err, runJson, summary: existsSync(join(out, "summary.json")) };
}

const PLACE = "link 3 (switch S0 port 1 → host H1) VL 0";

describe("cclab run and broken invariants", () => {
  it("end: a violation repaired before the end goes unseen (exit 0)", async () => {
    const r = await run("broken-size-repaired", "end", "repaired-end");
    expect(r.code).toBe(EXIT.ok);
    expect(r.runJson.status).toBe("complete");
  });

  for (const [mode, seen] of [
    ["default", /seen at the end of the slice ending at [\d.]+ µs/],
    ["periodic", /seen at the end of the slice ending at [\d.]+ µs/],
    ["every-event", /seen after the event at 0\.2512 µs/],
  ] as const) {
    it(`${mode}: a violation repaired later fails the run (exit 1)`, async () => {
      const r = await run("broken-size-repaired", mode, `repaired-${mode}`);
      expect(r.code).toBe(EXIT.runFailed);
      expect(r.err).toMatch(/^cclab run: run failed: invariant broken: credit conservation, /);
      expect(r.err).toMatch(seen);
      expect(r.err).toContain(PLACE);
      expect(r.runJson.status).toBe("failed");
      expect(r.runJson.reason).toContain("credit conservation");
      expect(r.summary).toBe(false);
    });
  }

  for (const mode of ["end", "periodic", "every-event"]) {
    it(`${mode}: a violation that lasts fails the run (exit 1)`, async () => {
      const r = await run("broken-size", mode, `lasting-${mode}`);
      expect(r.code).toBe(EXIT.runFailed);
      expect(r.err).toMatch(/run failed: invariant broken: credit conservation, seen .* µs: /);
      expect(r.err).toContain(PLACE);
      if (mode === "end") expect(r.err).toContain("seen at the end of the run, 400 µs");
      expect(r.runJson.status).toBe("failed");
      expect(r.summary).toBe(false);
    });
  }
});
