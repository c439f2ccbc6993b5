/**
 * The two built-in distributions: valid CDFs, the published points (HPCC's traffic_gen files,
 * percent → fraction), and the means loads are converted with.
 */
import { describe, expect, it } from "vitest";
import { cdfPointIssues } from "../cdf-points.js";
import { meanBytes, sizeSchema } from "../size.js";
import { BUILT_IN_CDF_NAMES, BUILT_IN_CDFS } from "./index.js";

describe("built-in CDFs", () => {
  it.each(BUILT_IN_CDF_NAMES)("%s is a valid, frozen CDF from 1 byte", (name) => {
    const points = BUILT_IN_CDFS[name];
    expect(cdfPointIssues(points)).toEqual([]);
    expect(points[0]).toEqual([1, 0]);
    expect(Object.isFrozen(points) && points.every((p) => Object.isFrozen(p))).toBe(true);
    expect(sizeSchema.parse({ kind: "cdf", points: points.map((p) => [...p]) })).toBeTruthy();
  });

  it("WebSearch (DCTCP): 12 points up to 30 MB, mean 1 711 250.075 bytes", () => {
    const points = BUILT_IN_CDFS.websearch;
    expect(points).toHaveLength(12);
    expect(points.at(-1)).toEqual([30_000_000, 1]);
    // Spot checks against WebSearch_distribution.txt: "80000 53", "5000000 90".
    expect(points).toContainEqual([80_000, 0.53]);
    expect(points).toContainEqual([5_000_000, 0.9]);
    // HPCC's getAvg gives 1 711 250 with the file's first point at 0 bytes; ours starts at
    // 1 byte, adding 0.15 × ½ byte.
    expect(meanBytes({ kind: "cdf", distribution: "websearch" })).toBeCloseTo(1_711_250.075, 6);
  });

  it("Hadoop (Facebook): 20 points up to 10 MB, mean 120 420.755 bytes", () => {
    const points = BUILT_IN_CDFS.hadoop;
    expect(points).toHaveLength(20);
    expect(points.at(-1)).toEqual([10_000_000, 1]);
    expect(points).toContainEqual([350, 0.15]); // "350 15"
    expect(points).toContainEqual([1_000_000, 0.975]); // "1000000 97.5"
    // getAvg: 120 420.75; ours 0.01 × ½ byte more.
    expect(meanBytes({ kind: "cdf", distribution: "hadoop" })).toBeCloseTo(120_420.755, 6);
  });
});
