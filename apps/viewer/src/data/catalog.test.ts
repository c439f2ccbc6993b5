import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../../../../packages/sim/test/scratch-dir.js";
import { writeRunDir, writeSweepDir } from "../../test/fixtures.js";
import { Catalog, classifyDir } from "./catalog.js";

describe("Catalog", () => {
  const base = scratchDir("cclab-catalog-");
  const run = writeRunDir(join(base, "run-a"));
  const sweep = writeSweepDir(join(base, "sweep-a"));

  it("lists runs, sweeps and the sweeps' finished points", async () => {
    const c = new Catalog([run, sweep]);
    expect(c.manifest.runs.map((r) => [r.id, r.label, r.sweep])).toEqual([
      ["r0", "run-a", undefined],
      ["s1.0", "sweep-a/p1", "s1"],
    ]);
    const s = c.manifest.sweeps[0]!;
    expect(s.axes).toEqual([{ path: "cc.x", values: [1, 2] }]);
    expect(s.metrics).toEqual(["totals.windowGbps", "groups.victim.meanGbps"]);
    expect(s.plot).toEqual(["groups.victim.meanGbps", "totals.windowGbps"]);
    expect(s.points.map((p) => [p.id, p.runId, p.status, p.error])).toEqual([
      ["p1", "s1.0", "complete", undefined],
      ["p2", undefined, "failed", "boom"],
    ]);
    const detail = await c.run("r0")!.detail();
    expect(detail.tables.map((t) => t.title)).toEqual([
      "Traffic groups",
      "Flows",
      "Busiest inputs",
    ]);
    expect(detail.ports).toHaveLength(6);
    expect(detail.facts[0]![1]).toContain("tiny");
  });

  it("gives port rates to the port map when the caller knows them", async () => {
    const c = new Catalog([run], { portRates: async () => new Map([["S0.p1", 16]]) });
    const ports = (await c.run("r0")!.detail()).ports;
    expect(ports.find((p) => p.name === "S0.p1")?.rateGbps).toBe(16);
  });

  it("refuses a folder that is neither, and a sweep point whose id climbs out", () => {
    const empty = join(base, "empty");
    mkdirSync(empty);
    expect(classifyDir(empty)).toBeUndefined();
    expect(() => new Catalog([empty])).toThrow(/neither a finished run/);
    const evil = writeSweepDir(join(base, "evil"));
    writeFileSync(
      join(evil, "sweep.resolved.json"),
      JSON.stringify({
        name: "e",
        axes: { x: [1] },
        points: [
          { id: "../../run-a", values: { x: 1 }, seed: 1 },
          { id: "linked", values: { x: 1 }, seed: 2 },
        ],
      }),
    );
    symlinkSync(run, join(evil, "points/linked"));
    const c = new Catalog([evil]);
    expect(c.manifest.sweeps[0]!.points.map((p) => p.runId)).toEqual([undefined, undefined]);
    expect(c.manifest.runs).toHaveLength(0);
  });
});
