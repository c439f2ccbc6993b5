import { describe, expect, it } from "vitest";
import { nonHotspotBins, settlesAtUs } from "./paper4-forests.js";

describe("nonHotspotBins", () => {
  it("averages the non-hotspots per bin, hosts missing from a bin counting as zero", () => {
    const csv = [
      "bin_start_us,host,group,gbps",
      "0,H0,hot,10",
      "0,H1,victim,2",
      "0,H2,victim,4",
      "1000,H0,hot,12",
      "1000,H1,hot,1",
      "1000,H1,victim,2",
    ].join("\n");
    // H3 never received: three non-hotspots (H1, H2, H3).
    expect(nonHotspotBins(csv, new Set(["H0"]), 3)).toEqual([
      { startUs: 0, gbps: 2 },
      { startUs: 1000, gbps: 1 },
    ]);
  });
});

describe("settlesAtUs", () => {
  const bins = (values: number[]) => values.map((gbps, i) => ({ startUs: i * 1000, gbps }));

  it("is the start of the first 5-bin window that stays within 10 % of the final level", () => {
    const ramp = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const flat = new Array(30).fill(10);
    // Windows from bin 8 on average ≥ 9.4 (within 10 % of 10); the one from bin 7 averages 8.8.
    expect(settlesAtUs(bins([...ramp, ...flat]))).toBe(8000);
  });

  it("is null when the rate leaves the band again at the end, or the run is too short", () => {
    const late = [...new Array(20).fill(10), ...new Array(4).fill(2), 10, 10, 10, 10];
    expect(settlesAtUs(bins(late))).toBe(null);
    expect(settlesAtUs(bins([1, 1, 1]))).toBe(null);
  });
});
