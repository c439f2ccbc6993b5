import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveScenario } from "@cclab/sim";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { scratchDir } from "../../sim/test/scratch-dir.js";
import {
  axisValues,
  expandPoints,
  readSweepFile,
  SweepError,
  summaryValue,
  sweepSchema,
  sweepSeeds,
} from "../src/index.js";
import { TINY } from "./fixtures.js";

const BASE = { ...TINY, seed: 9 };

function sweepFile(sweep: unknown): string {
  const dir = scratchDir("cclab-sweep-file-");
  writeFileSync(join(dir, "base.yaml"), stringify(BASE));
  const file = join(dir, "sweep.yaml");
  writeFileSync(file, stringify(sweep));
  return file;
}

const issuesOf = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(SweepError);
    return (error as SweepError).issues;
  }
  throw new Error("no error");
};

describe("axes", () => {
  it("expands arithmetic ranges with both ends and without float noise", () => {
    expect(axisValues({ from: 0.1, to: 0.5, step: 0.1 })).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(axisValues({ from: 50, to: 200, step: 50 })).toEqual([50, 100, 150, 200]);
    expect(axisValues({ from: 0, to: 9, step: 4 })).toEqual([0, 4, 8]);
  });

  it("expands geometric ranges", () => {
    expect(axisValues({ from: 75, to: 1200, factor: 2 })).toEqual([75, 150, 300, 600, 1200]);
    expect(axisValues({ from: 1, to: 10, factor: 3 })).toEqual([1, 3, 9]);
  });

  it("keeps lists as given, of any type", () => {
    expect(axisValues(["voq-port", "1q"])).toEqual(["voq-port", "1q"]);
  });
});

describe("expandPoints", () => {
  const sweep = sweepSchema.parse({
    name: "s",
    base: "base.yaml",
    set: { "run.durationUs": 80 },
    axes: { "traffic[0].loadFraction": [0.2, 0.4], "topology.hosts": { from: 4, to: 8, step: 4 } },
    seeds: { count: 3 },
  });
  const points = expandPoints(sweep, BASE);

  it("makes every combination, first axis outermost and seeds innermost", () => {
    expect(points).toHaveLength(12);
    expect(points.map((p) => p.id).slice(0, 3)).toEqual(["p01", "p02", "p03"]);
    expect(
      points
        .slice(0, 4)
        .map((p) => [p.values["traffic[0].loadFraction"], p.values["topology.hosts"], p.seed]),
    ).toEqual([
      [0.2, 4, 1],
      [0.2, 4, 2],
      [0.2, 4, 3],
      [0.2, 8, 1],
    ]);
    expect(points.at(-1)!.values).toEqual({ "traffic[0].loadFraction": 0.4, "topology.hosts": 8 });
  });

  it("applies set, the axis values and the seed to a copy of the base", () => {
    const doc = points[4]!.document as typeof BASE;
    expect(doc.run.durationUs).toBe(80);
    expect(doc.traffic[0]!.loadFraction).toBe(0.2);
    expect(doc.topology.hosts).toBe(8);
    expect(doc.seed).toBe(2);
    expect(BASE.run.durationUs).toBe(40);
  });

  it("keeps the base scenario's seed without seeds", () => {
    const one = expandPoints(
      sweepSchema.parse({ name: "s", base: "b", axes: { "run.durationUs": [10] } }),
      BASE,
    );
    expect(one.map((p) => p.seed)).toEqual([9]);
  });
});

describe("readSweepFile", () => {
  it("reads a sweep and its base scenario", () => {
    const loaded = readSweepFile(
      sweepFile({ name: "s", base: "base.yaml", axes: { "run.durationUs": [10, 20] } }),
    );
    expect(loaded.baseDocument).toEqual(BASE);
    expect(loaded.sweep.keepSeries).toBe(false);
  });

  it.each([
    ["an unknown key", { name: "s", base: "base.yaml", axes: { a: [1] }, axis: {} }, ""],
    ["no axes", { name: "s", base: "base.yaml", axes: {} }, "axes"],
    [
      "an empty axis",
      { name: "s", base: "base.yaml", axes: { "run.durationUs": [] } },
      "axes.run.durationUs",
    ],
    [
      "a zero step",
      { name: "s", base: "base.yaml", axes: { x: { from: 1, to: 2, step: 0 } } },
      "axes.x.step",
    ],
    ["a name that is no file name", { name: "a/b", base: "base.yaml", axes: { x: [1] } }, "name"],
    ["seed as an axis", { name: "s", base: "base.yaml", axes: { seed: [1, 2] } }, "axes.seed"],
    [
      "a field both set and swept",
      { name: "s", base: "base.yaml", set: { x: 1 }, axes: { x: [1] } },
      "set.x",
    ],
    ["a missing base", { name: "s", base: "nowhere.yaml", axes: { x: [1] } }, "base"],
  ])("rejects %s, naming the field", (_what, sweep, path) => {
    const issues = issuesOf(() => readSweepFile(sweepFile(sweep)));
    expect(issues.map((i) => i.path)).toContain(path);
  });
});

describe("summaryValue", () => {
  const summary = {
    totals: { windowGbps: 3 },
    groups: [
      { name: "victim", meanGbps: 12 },
      { name: "hot", meanGbps: 1 },
    ],
  };

  it("follows dotted paths, picking list elements by name or index", () => {
    expect(summaryValue(summary, "totals.windowGbps")).toBe(3);
    expect(summaryValue(summary, "groups.hot.meanGbps")).toBe(1);
    expect(summaryValue(summary, "groups.0.meanGbps")).toBe(12);
    expect(summaryValue(summary, "groups.none.meanGbps")).toBeUndefined();
    expect(summaryValue(summary, "totals.toString")).toBeUndefined();
  });
});

describe("shipped sweep files", () => {
  const root = new URL("../../../scenarios/", import.meta.url).pathname;
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) =>
    f.endsWith(".sweep.yaml"),
  );

  it("are found", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)("%s has only valid points", async (file) => {
    const { sweep, baseDocument } = readSweepFile(`${root}${file}`);
    const points = expandPoints(sweep, baseDocument);
    // Every combination of the axes' values, for every seed.
    const combinations = Object.values(sweep.axes).reduce(
      (n: number, axis) => n * axisValues(axis).length,
      sweepSeeds(sweep, baseDocument).length,
    );
    expect(points.length).toBe(combinations);
    expect(points.length).toBeGreaterThan(1);
    for (const point of points) await resolveScenario(point.document);
  });
});
