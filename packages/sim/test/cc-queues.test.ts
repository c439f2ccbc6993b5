/**
 * The `cc-queues` series (docs/model.md, "What is measured"): switch parts' per-egress-queue
 * variables (contract 3.3's `sampleQueues`) at every bin edge, in `cc-queues.csv`. Run on the
 * PFC victim fabric of packages/cc-tcd/test/victim.test.ts, as a scenario: H2→H5, H6→H5 and
 * H7→H5 congest S2's port to H5; S1's port to S2 (S1.p3), four times a host link, is paused only
 * because S2's input from it fills, so TCD holds it undetermined (U) while the victim H1→H4
 * crosses it (seed 004_abc94112a2f36164.txt lines 374–384).
 */
import { describe, expect, it } from "vitest";
import { QUEUE_SERIES_FILE, type SimulationResult, simulate } from "../src/index.js";
import { csvRows } from "./helpers.js";

const victimFabric = (metrics: Record<string, unknown>) => ({
  name: "tcd-victim",
  seed: 5,
  topology: { kind: "gran-testbed", rateGbps: 10, latencyNs: 100, interSwitchRateGbps: 40 },
  flowControl: "pfc",
  switch: {
    buffer: { model: "partitioned", bytesPerPortVl: 48 * 1024 },
    pfc: { xoffBytes: 24 * 1024, xonBytes: 22 * 1024 },
  },
  host: { mtuBytes: 1000, headerBytes: 30, receiveBufferBytes: 64 * 1024 },
  traffic: [
    {
      pattern: "scheduled",
      flows: [
        { src: "H1", dst: "H4", group: "victim" },
        { src: "H2", dst: "H5" },
        { src: "H6", dst: "H5" },
        { src: "H7", dst: "H5" },
      ],
    },
  ],
  run: { durationUs: 400 },
  // The detector alone (no reaction), with the victim test's tight RED curve.
  cc: {
    switch: { plugin: "tcd", params: { red: { kMinBytes: 5150, kMaxBytes: 20600, pMax: 1 } } },
  },
  metrics: { binUs: 10, ...metrics },
});

const COLUMNS = ["time_us", "switch", "port", "port_name", "vl", "variable", "value"];

/** The names TCD's switch part declares for `state` (contract 3.4), as run.json holds them. */
const TCD_STATE_NAMES_BY_VALUE = {
  "0": "NC: non-congestion",
  "1": "CHECK: trend after U",
  "2": "U: undetermined",
  "3": "C: congestion",
};

function header(result: SimulationResult): string[] {
  return result.files.get(QUEUE_SERIES_FILE)!.split("\n")[0]!.split(",");
}

describe("cc-queues.csv", () => {
  it("samples every TCD queue that carried data at each bin edge; S1's port to S2 reaches U", async () => {
    const result = await simulate(victimFabric({ series: ["cc-queues"] }));
    expect(header(result)).toEqual(COLUMNS);
    const rows = csvRows(result, QUEUE_SERIES_FILE);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(Object.values(r).every((cell) => cell !== undefined && cell !== "")).toBe(true);
      expect(["S1", "S2"]).toContain(r.switch);
      expect(r.port_name).toBe(`${r.switch}.p${r.port}`);
      expect(r.vl).toBe("0");
      expect(["state", "ceMarked", "ueMarked", "queueBytes"]).toContain(r.variable);
      expect(Number.isFinite(+r.value!)).toBe(true);
      expect(+r.value!).toBeGreaterThanOrEqual(0);
    }
    const states = rows.filter((r) => r.variable === "state");
    expect(states.every((r) => ["0", "1", "2", "3"].includes(r.value!))).toBe(true);
    // A sample at each bin edge (10, 20, … 400 µs) of every queue that had sent data by then.
    const times = [...new Set(rows.map((r) => +r.time_us!))];
    expect(times).toEqual(Array.from({ length: 40 }, (_, i) => 10 * (i + 1)));
    // One row per time, queue and variable: the run ends on a bin edge, and the end-of-run
    // sample must not repeat that edge's.
    const keys = rows.map((r) => `${r.time_us} ${r.port_name} ${r.vl} ${r.variable}`);
    expect(new Set(keys).size).toBe(keys.length);
    const paused = states.filter((r) => r.port_name === "S1.p3");
    expect(paused.some((r) => r.value === "2")).toBe(true);
    // From its first U on, it stays U (the victim test's finding, sampled).
    const firstU = paused.findIndex((r) => r.value === "2");
    expect(paused.slice(firstU).every((r) => r.value === "2")).toBe(true);
    // The hot spot's port is congested: C, with CE marks, and never UE.
    const last = (port: string, variable: string) =>
      rows.filter((r) => r.port_name === port && r.variable === variable).at(-1)!.value;
    expect(last("S2.p2", "state")).toBe("3");
    expect(+last("S2.p2", "ceMarked")!).toBeGreaterThan(0);
    expect(last("S2.p2", "ueMarked")).toBe("0");
    // The per-queue marks add up to the run's counters (the last sample is at the run's end).
    const ports = [...new Set(rows.map((r) => r.port_name!))];
    const total = (variable: string) => ports.reduce((sum, p) => sum + +last(p, variable)!, 0);
    const counters = result.summary.totals.ccCounters;
    expect(total("ueMarked")).toBe(counters.ueMarked);
    expect(total("ceMarked")).toBe(counters.ceMarked);
    expect(result.run.queueSeries).toEqual({
      file: QUEUE_SERIES_FILE,
      queues: ports.length,
      maxQueues: 256,
      capped: false,
      omittedQueues: 0,
      valueLabels: { state: TCD_STATE_NAMES_BY_VALUE },
    });
  });

  it("keeps only metrics.maxQueueSeries queues, the first reported, and says so in run.json", async () => {
    const full = await simulate(victimFabric({ series: ["cc-queues"] }));
    const capped = await simulate(victimFabric({ series: ["cc-queues"], maxQueueSeries: 2 }));
    const queues = (r: SimulationResult) => [
      ...new Set(csvRows(r, QUEUE_SERIES_FILE).map((row) => row.port_name)),
    ];
    const all = queues(full);
    expect(all.length).toBeGreaterThan(2);
    expect(queues(capped)).toEqual(all.slice(0, 2));
    expect(capped.run.queueSeries).toEqual({
      file: QUEUE_SERIES_FILE,
      queues: 2,
      maxQueues: 2,
      capped: true,
      omittedQueues: all.length - 2,
      valueLabels: { state: TCD_STATE_NAMES_BY_VALUE },
    });
    // The kept queues' rows are those of the full series.
    const kept = csvRows(full, QUEUE_SERIES_FILE).filter((r) =>
      all.slice(0, 2).includes(r.port_name),
    );
    expect(csvRows(capped, QUEUE_SERIES_FILE)).toEqual(kept);
  });

  it("is not written unless asked for, and sampling changes nothing else", async () => {
    const without = await simulate(victimFabric({ series: ["flow-control"] }));
    const withIt = await simulate(victimFabric({ series: ["flow-control", "cc-queues"] }));
    expect(without.files.has(QUEUE_SERIES_FILE)).toBe(false);
    expect(without.run.queueSeries).toBeUndefined();
    expect(withIt.files.has(QUEUE_SERIES_FILE)).toBe(true);
    // The same run, but for the sampler's own events: one per bin edge.
    const { eventsProcessed: a, ...rest } = withIt.summary;
    const { eventsProcessed: b, ...restWithout } = without.summary;
    expect(rest).toEqual(restWithout);
    expect(a - b).toBe(40);
    expect(withIt.files.get("flow-control.csv")).toBe(without.files.get("flow-control.csv"));
    // By default it is off.
    const byDefault = await simulate(victimFabric({}));
    expect(byDefault.scenario.metrics.series).not.toContain("cc-queues");
    expect(byDefault.files.has(QUEUE_SERIES_FILE)).toBe(false);
  });

  it("writes no file when no switch part reports queues", async () => {
    const result = await simulate({
      ...victimFabric({ series: ["cc-queues"] }),
      cc: { switch: { plugin: "dcqcn" } },
    });
    expect(result.files.has(QUEUE_SERIES_FILE)).toBe(false);
    expect(result.run.queueSeries).toBeUndefined();
  });
});
