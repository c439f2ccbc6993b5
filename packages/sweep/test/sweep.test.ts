import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { scratchDir } from "../../sim/test/scratch-dir.js";
import { runSweep, type SweepProgress } from "../src/index.js";
import { testBundles } from "./bundles.js";
import { TINY } from "./fixtures.js";

const BASE = TINY;

const dir = scratchDir("cclab-sweep-");
writeFileSync(join(dir, "base.yaml"), stringify(BASE));

function sweepFile(name: string, sweep: Record<string, unknown>): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, stringify({ name, base: "base.yaml", ...sweep }));
  return file;
}

/** 2 × 2 points × 2 seeds = 8. */
const EIGHT = {
  axes: { "traffic[0].loadFraction": [0.3, 0.8], "topology.hosts": [4, 6] },
  seeds: [1, 2],
};

let workerFile: string;
beforeAll(async () => {
  workerFile = (await testBundles()).worker;
}, 60_000);

describe("runSweep on this machine's cores", () => {
  it("gives the same table with 1 thread and with every core, and resumes without rerunning", async () => {
    const file = sweepFile("eight", EIGHT);
    const one = join(dir, "one");
    const progress: SweepProgress[] = [];
    const r1 = await runSweep(file, {
      out: one,
      threads: 1,
      workerFile,
      onProgress: (p) => progress.push(p),
    });
    expect(r1).toMatchObject({ points: 8, ran: 8, resumed: 0, failed: [] });
    expect(progress.at(-1)).toMatchObject({ total: 8, done: 8, failed: 0 });
    expect(progress.map((p) => p.done)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);

    const all = join(dir, "all");
    const r2 = await runSweep(file, { out: all, threads: availableParallelism(), workerFile });
    expect(r2.ran).toBe(8);
    const table = readFileSync(join(one, "sweep.csv"), "utf8");
    expect(readFileSync(join(all, "sweep.csv"), "utf8")).toBe(table);

    const lines = table.trim().split("\n");
    expect(lines).toHaveLength(9);
    expect(lines[0]).toMatch(
      /^point,traffic\[0\]\.loadFraction,topology\.hosts,seed,status,totals\.windowGbps,/,
    );
    expect(lines[0]).toContain("groups.uniform.meanGbps");
    expect(lines[1]).toMatch(/^p1,0\.3,4,1,complete,/);
    // The points differ: load and seed change what is delivered.
    const windows = lines.slice(1).map((l) => l.split(",")[5]);
    expect(new Set(windows).size).toBeGreaterThan(4);

    // A rerun finds every point finished; a point whose scenario changed is run again.
    const again = await runSweep(file, { out: one, threads: 1, workerFile });
    expect(again).toMatchObject({ ran: 0, resumed: 8 });
    expect(readFileSync(join(one, "sweep.csv"), "utf8")).toBe(table);
    const pointJson = join(one, "points", "p3", "point.json");
    const saved = JSON.parse(readFileSync(pointJson, "utf8"));
    writeFileSync(pointJson, JSON.stringify({ ...saved, scenarioSha256: "0".repeat(64) }));
    const third = await runSweep(file, { out: one, threads: 1, workerFile });
    expect(third).toMatchObject({ ran: 1, resumed: 7 });
    expect(readFileSync(join(one, "sweep.csv"), "utf8")).toBe(table);

    // Every point keeps its resolved scenario and summary; plots cover the two axes.
    expect(existsSync(join(one, "points", "p8", "scenario.resolved.json"))).toBe(true);
    expect(existsSync(join(one, "points", "p8", "flow-throughput.csv"))).toBe(false);
    expect(r1.files).toContain("plots/heatmap-groups.uniform.meanGbps.png");
    expect(r1.files).toContain("plots/heatmap-totals.windowGbps.svg");
    const svg = readFileSync(join(one, "plots", "heatmap-totals.windowGbps.svg"), "utf8");
    expect(svg).toContain("traffic[0].loadFraction");
    expect(svg).toContain("mean over 2 seeds");
  }, 120_000);

  it("reports a failed point with its error and finishes the others", async () => {
    const file = sweepFile("one-bad", { axes: { "traffic[0].loadFraction": [0.5, -1, 0.7] } });
    const out = join(dir, "one-bad");
    const report = await runSweep(file, { out, threads: 2, workerFile });
    expect(report.ran).toBe(2);
    expect(report.failed).toEqual([
      { id: "p2", error: expect.stringContaining("traffic[0].loadFraction") },
    ]);
    const rows = readFileSync(join(out, "sweep.csv"), "utf8").trim().split("\n");
    expect(rows[2]).toMatch(/^p2,-1,1,failed,/);
    expect(rows[1]).toMatch(/^p1,0\.5,1,complete,/);
    expect(rows[3]).toMatch(/^p3,0\.7,1,complete,/);
    expect(readFileSync(join(out, "points", "p2", "error.txt"), "utf8")).toContain("loadFraction");
    expect(existsSync(join(out, "plots", "line-totals.windowGbps.png"))).toBe(true);
  }, 60_000);

  it("rejects a sweep none of whose points can run, before running any", async () => {
    const file = sweepFile("all-bad", { axes: { "traffic[0].loadFraction": [-1, -2] } });
    const out = join(dir, "all-bad");
    await expect(runSweep(file, { out, threads: 1, workerFile })).rejects.toThrow(
      /p1.*loadFraction/s,
    );
    expect(existsSync(join(out, "sweep.csv"))).toBe(false);
  });

  it("checks the rows of each point's trace file, relative to the sweep, before running", async () => {
    writeFileSync(join(dir, "bad-dst.csv"), "src,dst,bytes,startNs\n0,1,1000,0\n0,9,1000,0\n");
    writeFileSync(join(dir, "bad-sl.csv"), "src,dst,bytes,startNs,sl\n0,1,1000,0,1\n");
    const file = sweepFile("traces", {
      set: { traffic: [{ pattern: "trace", path: "bad-dst.csv" }] },
      axes: { "traffic[0].path": ["bad-dst.csv", "bad-sl.csv"] },
    });
    const out = join(dir, "traces");
    // Rejected as a whole: neither point can run (the second has no service level 1).
    await expect(runSweep(file, { out, threads: 1, workerFile })).rejects.toThrow(
      "points.p1: invalid scenario: traffic[0]: bad-dst.csv:3: dst = 9 is not a host (0..3)",
    );
    expect(existsSync(join(out, "sweep.csv"))).toBe(false);
  });

  it("keeps every point's CSV series with keepSeries", async () => {
    const file = sweepFile("series", { axes: { "run.durationUs": [20] }, keepSeries: true });
    const out = join(dir, "series");
    await runSweep(file, { out, threads: 1, workerFile });
    expect(existsSync(join(out, "points", "p1", "flow-throughput.csv"))).toBe(true);
  }, 60_000);
});
