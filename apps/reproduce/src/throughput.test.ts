import { describe, expect, it } from "vitest";
import {
  convergenceUs,
  type FlowSeries,
  jain,
  mean,
  parseFlowThroughput,
  sd,
  treatmentVariation,
  window,
} from "./throughput.js";

const series = (name: string, gbps: number[]): FlowSeries => ({
  name,
  group: "g",
  binStartUs: gbps.map((_, i) => i * 1000),
  gbps,
});

describe("throughput statistics", () => {
  it("parses flow-throughput.csv into per-flow series in bin order", () => {
    const flows = parseFlowThroughput(
      "bin_start_us,flow,src,dst,group,gbps\n0,3,H1,H4,victim,12.5\n0,11,H2,H5,c,0\n1000,3,H1,H4,victim,13\n1000,11,H2,H5,c,4\n",
    );
    expect([...flows.keys()]).toEqual(["H1→H4", "H2→H5"]);
    expect(flows.get("H1→H4")).toEqual({
      name: "H1→H4",
      group: "victim",
      binStartUs: [0, 1000],
      gbps: [12.5, 13],
    });
  });

  it("windows by bin start, mean, sample SD, Jain", () => {
    const s = series("a", [1, 2, 3, 4]);
    expect(window(s, 1000, 3000)).toEqual([2, 3]);
    expect(mean([2, 4])).toBe(3);
    expect(sd([2, 4])).toBeCloseTo(Math.SQRT2, 12);
    expect(jain([5, 5, 5])).toBe(1);
    expect(jain([1, 0])).toBe(0.5);
  });

  it("treatment variation is the variance of max − min over bins", () => {
    const a = series("a", [3, 3, 3, 5]);
    const b = series("b", [1, 3, 2, 1]);
    // max − min per bin: 2, 0, 1, 4 → mean 1.75, sample variance 2.9166…
    expect(treatmentVariation([a, b], 0, 4000)).toBeCloseTo(35 / 12, 12);
  });

  it("convergence: the first run of holdBins bins within the band, from the join", () => {
    const a = series("a", [10, 10, 9, 6, 6, 6, 6]);
    const b = series("b", [0, 2, 3, 6, 5.5, 6, 6]);
    expect(convergenceUs([a, b], 1000, 7000, 0.2, 3)).toBe(2000);
    expect(convergenceUs([a, b], 1000, 7000, 0.01, 3)).toBeNull();
  });
});
