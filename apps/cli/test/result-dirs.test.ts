import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { VALID } from "../../../packages/sim/test/malformed-cases.js";
import { scratchDir } from "../../../packages/sim/test/scratch-dir.js";
import { testBundles } from "../../../packages/sweep/test/bundles.js";
import { EXIT, main } from "../src/index.js";
import { capture } from "./capture.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const dir = scratchDir("cclab-result-dirs-");

function scenarioFile(name: string, document: unknown): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, stringify(document));
  return file;
}

const runJson = (out: string) =>
  JSON.parse(readFileSync(join(out, "run.json"), "utf8")) as { status: string; reason?: string };

/** A long run (uniform256, seconds of wall time) of the CLI built from sources, in a child. */
async function startRun(out: string, extra: string[] = []): Promise<ChildProcess> {
  const { cli } = await testBundles();
  return spawn(
    process.execPath,
    [
      cli,
      "run",
      join(root, "scenarios/bench/uniform256.yaml"),
      "--out",
      out,
      "--no-plots",
      "--progress-seconds",
      "0.2",
      ...extra,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
}

/** Sends `signal` once the run has started (its first progress line), resolves with its end. */
function killMidRun(
  child: ChildProcess,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = "";
  let sent = false;
  const send = () => {
    if (!sent) {
      sent = true;
      child.kill(signal);
    }
  };
  const fallback = setTimeout(send, 15_000);
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.includes("cclab run: [")) send();
  });
  return new Promise((resolve) => {
    child.on("exit", (code, sig) => {
      clearTimeout(fallback);
      resolve({ code, signal: sig, stderr });
    });
  });
}

// Two small scenarios: one records the `cc` series (cc-flows.csv, cc-* figures), one does not.
const withCc = scenarioFile("with-cc", {
  ...VALID,
  name: "with-cc",
  run: { durationUs: 100 },
  cc: { switch: { plugin: "infiniband" }, hosts: [{ plugin: "infiniband" }] },
});
const withoutCc = scenarioFile("without-cc", { ...VALID, name: "without-cc" });

describe("rerunning into a result folder", () => {
  it("leaves no file of the earlier run, keeps the user's, and plots keep the user's figure", async () => {
    const out = join(dir, "rerun");
    expect(await main(["run", withCc, "--out", out, "--quiet"], capture().io)).toBe(EXIT.ok);
    expect(existsSync(join(out, "cc-flows.csv"))).toBe(true);
    expect(readdirSync(join(out, "plots")).some((f) => f.startsWith("cc-"))).toBe(true);
    writeFileSync(join(out, "notes.md"), "my notes");
    writeFileSync(join(out, "plots", "my-figure.png"), "my figure");

    const p = capture();
    expect(await main(["plot", out], p.io)).toBe(EXIT.ok);
    expect(readFileSync(join(out, "plots", "my-figure.png"), "utf8")).toBe("my figure");

    expect(await main(["run", withoutCc, "--out", out, "--quiet"], capture().io)).toBe(EXIT.ok);
    expect(existsSync(join(out, "cc-flows.csv"))).toBe(false);
    expect(readdirSync(join(out, "plots")).some((f) => f.startsWith("cc-"))).toBe(false);
    expect(readFileSync(join(out, "summary.txt"), "utf8")).toContain("without-cc");
    expect(readFileSync(join(out, "notes.md"), "utf8")).toBe("my notes");
    expect(readFileSync(join(out, "plots", "my-figure.png"), "utf8")).toBe("my figure");
  }, 60_000);
});

describe("signals and killed runs (the CLI in a child process)", () => {
  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    it(`run.json says interrupted after ${signal}, and the earlier run's summary and series are gone`, async () => {
      const out = join(dir, `signal-${signal}`);
      // A finished run in the folder first: its summary.txt and CSVs must not outlive the rerun.
      expect(await main(["run", withCc, "--out", out, "--quiet"], capture().io)).toBe(EXIT.ok);
      writeFileSync(join(out, "notes.md"), "my notes");
      const end = await killMidRun(await startRun(out), signal);
      expect(end.code, end.stderr).toBe(EXIT.interrupted);
      expect(runJson(out)).toMatchObject({ status: "interrupted" });
      expect(runJson(out).reason).toContain(signal);
      for (const f of ["summary.json", "summary.txt", "cc-flows.csv", "flow-throughput.csv"]) {
        expect(existsSync(join(out, f)), f).toBe(false);
      }
      expect(existsSync(join(out, "plots")), "the earlier run's plots").toBe(false);
      expect(readFileSync(join(out, "notes.md"), "utf8")).toBe("my notes");
      const p = capture();
      expect(await main(["plot", out], p.io)).toBe(EXIT.badInput);
      expect(p.c.err).toContain("was interrupted");
    }, 60_000);
  }

  it("a run killed with SIGKILL is reported as killed by cclab plot and cclab compare", async () => {
    const out = join(dir, "killed");
    const end = await killMidRun(await startRun(out), "SIGKILL");
    expect(end.signal).toBe("SIGKILL");
    expect(runJson(out).status).toBe("running");

    const p = capture();
    expect(await main(["plot", out], p.io)).toBe(EXIT.badInput);
    expect(p.c.err).toMatch(/cclab plot: .*killed: run\.json says running, but its process \d+/);

    const done = join(dir, "done");
    expect(await main(["run", withCc, "--out", done, "--no-plots", "--quiet"], capture().io)).toBe(
      EXIT.ok,
    );
    const c = capture();
    const code = await main(["compare", done, out, "--out", join(dir, "cmp")], c.io);
    expect(code).toBe(EXIT.badInput);
    expect(c.c.err).toMatch(/cclab compare: .*killed/);
  }, 60_000);
});
