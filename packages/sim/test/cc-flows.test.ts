/**
 * The `cc` series (docs/model.md, "What is measured"): sender parts' per-flow variables at every
 * bin edge and once at the end of the run, in `cc-flows.csv`.
 */
import { describe, expect, it } from "vitest";
import { csvRows, runShipped } from "./helpers.js";

describe("cc-flows.csv", () => {
  it("has one row per time, flow and variable when the run ends on a bin edge", async () => {
    // InfiniBand CC hosts; 1 ms bins, a run of 3 ms: the last edge is the run's end.
    const result = await runShipped("gran-thesis/one-switch-single-threshold.yaml", [
      "run.durationUs=3000",
    ]);
    const rows = csvRows(result, "cc-flows.csv");
    const times = [...new Set(rows.map((r) => +r.time_us!))];
    expect(times).toEqual([1000, 2000, 3000]);
    const keys = rows.map((r) => `${r.time_us} ${r.flow} ${r.variable}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(rows.filter((r) => r.time_us === "3000")).toHaveLength(2);
  });

  it("samples the end of a run that stops between bin edges", async () => {
    const result = await runShipped("gran-thesis/one-switch-single-threshold.yaml", [
      "run.durationUs=2500",
    ]);
    const times = [...new Set(csvRows(result, "cc-flows.csv").map((r) => +r.time_us!))];
    expect(times).toEqual([1000, 2000, 2500]);
  });

  it("ends with the run's final state also when the run ends on a bin edge", async () => {
    // At 150 ms a CCTI timer fires at the same time as the bin edge, after the edge's sample.
    // Sampling changes nothing, so a run whose end is not a bin edge (7 µs bins) ends in the
    // same state, and both files' last rows must agree.
    const lastRows = async (binUs: number) => {
      const result = await runShipped("gran-thesis/one-switch-single-threshold.yaml", [
        "run.durationUs=150000",
        `metrics.binUs=${binUs}`,
      ]);
      const rows = csvRows(result, "cc-flows.csv");
      const end = rows.at(-1)!.time_us;
      return rows
        .filter((r) => r.time_us === end)
        .map((r) => `${r.flow} ${r.variable} ${r.value}`)
        .sort();
    };
    const onEdge = await lastRows(1000);
    expect(onEdge).toEqual(await lastRows(7));
    expect(onEdge.length).toBeGreaterThan(0);
  });
});
