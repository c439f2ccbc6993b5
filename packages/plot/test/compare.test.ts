import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../../sim/test/scratch-dir.js";
import {
  compareRuns,
  comparisonCsv,
  comparisonRows,
  differencesWarning,
  spreadVariance,
  treatmentVariation,
} from "../src/index.js";

describe("treatment variation (Paper III Var)", () => {
  it("is the sample variance of the per-bin spread", () => {
    // Spreads 1, 3, 2: mean 2, squared deviations 1 + 1 + 0, over n − 1 = 2 → 1.
    expect(
      spreadVariance([
        [5, 5, 5],
        [4, 2, 3],
        [4.5, 4, 4],
      ]),
    ).toBe(1);
    expect(spreadVariance([[1], [2]])).toBe(0);
  });

  it("counts only bins where every flow is active, from the last flow's first traffic", () => {
    // Flow b starts in bin 2; before that the spread would be huge.
    const a = [10, 10, 6, 8, 6];
    const b = [0, 0, 6, 4, 4];
    expect(treatmentVariation([a, b])).toBe(
      spreadVariance([
        [6, 8, 6],
        [6, 4, 4],
      ]),
    );
    expect(treatmentVariation([a, [0, 0, 0, 0, 0]])).toBeUndefined();
    expect(treatmentVariation([a])).toBeUndefined();
  });
});

function run(name: string, summary: object, throughput?: string, messages?: string): string {
  const dir = join(scratchDir("cclab-compare-"), name);
  mkdirSync(dir);
  writeFileSync(join(dir, "summary.json"), JSON.stringify(summary));
  if (throughput !== undefined) writeFileSync(join(dir, "flow-throughput.csv"), throughput);
  if (messages !== undefined) writeFileSync(join(dir, "messages.csv"), messages);
  return dir;
}

const summary = (
  windowGbps: number,
  groups: { name: string; meanGbps: number; jainIndex: number }[],
  fecn: number,
) => ({
  scenario: "s",
  seed: 1,
  totals: { windowGbps, marks: { fecn, becn: fecn, ecnCe: 0 }, pauseFrames: 2, dataDrops: 0 },
  groups,
  latencyNs: { total: { p50: 1000, p99: 5000 }, network: null },
  fct: { completionUs: { p50: 10, p99: 90 }, slowdown: { p99: 4.5 } },
});

describe("compareRuns", () => {
  const csv = (rows: string[]) => `bin_start_us,flow,src,dst,group,gbps\n${rows.join("\n")}\n`;
  const noCc = run(
    "no-cc",
    summary(10, [{ name: "c", meanGbps: 5, jainIndex: 0.9 }], 0),
    csv([
      "0,1,H1,H0,c,8",
      "0,2,H2,H0,c,2",
      "10,1,H1,H0,c,7",
      "10,2,H2,H0,c,3",
      "20,1,H1,H0,c,9",
      "20,2,H2,H0,c,1",
    ]),
    "message,flow,src,dst,bytes,start_us,completed_us,fct_us,ideal_us,slowdown\n0,1,H1,H0,1,0,5,5,1,5\n1,2,H2,H0,1,0,900,900,1,900\n",
  );
  const cc = run(
    "cc",
    summary(12, [{ name: "c", meanGbps: 6, jainIndex: 1 }], 7),
    csv([
      "0,1,H1,H0,c,6",
      "0,2,H2,H0,c,6",
      "10,1,H1,H0,c,6",
      "10,2,H2,H0,c,6",
      "20,1,H1,H0,c,6",
      "20,2,H2,H0,c,6",
    ]),
  );

  it("puts each run's figures side by side, with Var from its flow series", () => {
    const c = compareRuns([noCc, cc]);
    expect(c.groups).toEqual(["c"]);
    expect(c.runs.map((r) => r.label)).toEqual(["no-cc", "cc"]);
    // Spreads 6, 4, 8 → Var 4; equal flows → 0.
    expect(c.runs[0]!.groups.c!.treatmentVariation).toBe(4);
    expect(c.runs[1]!.groups.c!.treatmentVariation).toBe(0);
    const { header, rows } = comparisonRows(c);
    expect(header).toContain("c Var Gb/s²");
    expect(rows[1]).toEqual(
      expect.arrayContaining(["cc", "12.000", "6.000", "1.0000", "0.000", "7"]),
    );
    expect(comparisonCsv(c).split("\n")[0]).toContain("c_var_gb_s2");
  });

  it("overlays the runs: one throughput figure per group, one FCT CDF", () => {
    const c = compareRuns([noCc, cc]);
    expect(c.figures.map((f) => f.name)).toEqual(["throughput-c", "fct"]);
    const { layer } = c.figures[0]!.spec as unknown as {
      layer: { data: { values: { x: number; y: number; series: string }[] } }[];
    };
    // The mean over the group's two flows per bin: 5 in every bin without CC, 6 with.
    const points = layer[0]!.data.values;
    expect(points.filter((p) => p.series === "no-cc").map((p) => [p.x, p.y])).toEqual([
      [0, 5],
      [10, 5],
      [20, 5],
    ]);
    expect(points.filter((p) => p.series === "cc").map((p) => p.y)).toEqual([6, 6, 6]);
  });

  it("refuses a directory without a summary", () => {
    const empty = scratchDir("cclab-compare-empty-");
    expect(() => compareRuns([noCc, empty])).toThrow(/no summary\.json/);
  });

  it("labels runs by path when their names repeat", () => {
    const again = run("cc", summary(1, [], 0));
    expect(compareRuns([cc, again]).runs.map((r) => r.label)).toEqual([cc, again]);
    expect(readFileSync(join(again, "summary.json"), "utf8")).toContain('"scenario":"s"');
  });
});

describe("runs whose scenarios differ beyond their CC", () => {
  const scenario = (patch: object) => ({
    name: "x",
    description: "",
    seed: 1,
    topology: { kind: "single-switch", hosts: 4 },
    traffic: [{ pattern: "uniform", loadFraction: 0.5 }],
    run: { durationUs: 500, warmupUs: 100, untilComplete: false },
    cc: { switch: null, hosts: [] },
    ...patch,
  });
  const runWith = (name: string, resolved: object) => {
    const dir = join(scratchDir("cclab-compare-diff-"), name);
    mkdirSync(dir);
    writeFileSync(join(dir, "summary.json"), JSON.stringify(summary(10, [], 0)));
    writeFileSync(join(dir, "scenario.resolved.json"), JSON.stringify(resolved));
    return dir;
  };

  it("names every other field that differs, not the CC or the name", () => {
    const a = runWith("a", scenario({ name: "a" }));
    const b = runWith(
      "b",
      scenario({
        name: "b",
        cc: { switch: { plugin: "infiniband", params: {} }, hosts: [] },
        run: { durationUs: 900, warmupUs: 100, untilComplete: false },
        traffic: [{ pattern: "uniform", loadFraction: 0.8 }],
      }),
    );
    const c = compareRuns([a, b]);
    expect(c.differences).toEqual([
      { path: "run.durationUs", values: ["500", "900"] },
      { path: "traffic[0].loadFraction", values: ["0.5", "0.8"] },
    ]);
    expect(differencesWarning(c)).toBe(
      [
        "warning: these runs differ in more than their CC (2 fields of scenario.resolved.json); the table compares those differences too:",
        "  run.durationUs: a 500, b 900",
        "  traffic[0].loadFraction: a 0.5, b 0.8",
      ].join("\n"),
    );
  });

  it("says nothing for runs that differ only in their CC", () => {
    const a = runWith("a", scenario({}));
    const b = runWith(
      "b",
      scenario({ cc: { switch: { plugin: "dcqcn", params: {} }, hosts: [] } }),
    );
    expect(differencesWarning(compareRuns([a, b]))).toBe("");
  });
});
