import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { createRng } from "../rng.js";
import { Histogram } from "./histogram.js";
import { nearestRank, nearestRankOf } from "./quantile.js";

const QS = [0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1];

function exactQuantiles(values: number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  return QS.map((q) => nearestRank(sorted, q));
}

describe("nearest rank", () => {
  it("is ⌈q·n⌉ without binary rounding surprises", () => {
    expect(nearestRankOf(0.29, 100)).toBe(29); // 0.29 × 100 = 28.999999999999996
    expect(nearestRankOf(0.07, 100)).toBe(7); // 7.000000000000001
    expect(nearestRankOf(0.5, 3)).toBe(2);
    expect(nearestRankOf(0, 10)).toBe(1);
    expect(nearestRankOf(1, 10)).toBe(10);
    expect(nearestRank([1, 2, 3, 4], 0.5)).toBe(2);
    expect(Number.isNaN(nearestRank([], 0.5))).toBe(true);
  });
});

describe("Histogram", () => {
  it("summarises count, mean, extremes and percentiles", () => {
    const h = new Histogram();
    for (let i = 1; i <= 1000; i++) h.add(i);
    expect(h.summary()).toEqual({
      count: 1000,
      mean: 500.5,
      min: 1,
      p50: 500,
      p99: 990,
      p999: 999,
      max: 1000,
    });
  });

  it("is NaN when empty and rejects negative or non-finite samples", () => {
    const h = new Histogram();
    expect(Number.isNaN(h.quantile(0.5))).toBe(true);
    expect(Number.isNaN(h.mean)).toBe(true);
    expect(() => h.add(-1)).toThrow(/finite and ≥ 0/);
    expect(() => h.add(Number.POSITIVE_INFINITY)).toThrow(/finite/);
    expect(() => h.quantile(1.5)).toThrow(/\[0, 1\]/);
    expect(() => new Histogram({ relativeAccuracy: 0 })).toThrow(/relativeAccuracy/);
  });

  test.prop([
    fc.array(fc.double({ min: 0, max: 1e12, noNaN: true }), { minLength: 1, maxLength: 300 }),
  ])("is exact while the sample fits in exactLimit", (values) => {
    const h = new Histogram({ exactLimit: 300 });
    for (const v of values) h.add(v);
    expect(QS.map((q) => h.quantile(q))).toEqual(exactQuantiles(values));
  });

  test.prop(
    [
      fc.integer({ min: 0, max: 2 ** 31 }),
      fc.constantFrom("uniform", "exponential", "lognormal-wide", "with-zeros", "integers"),
      fc.integer({ min: 50, max: 5000 }),
      fc.constantFrom(0.001, 0.005, 0.02),
    ],
    { numRuns: 60 },
  )(
    "beyond exactLimit every quantile is within the relative accuracy of the exact one",
    (seed, shape, n, alpha) => {
      const rng = createRng(seed);
      const draw = (): number => {
        switch (shape) {
          case "uniform":
            return rng.uniformRange(1e3, 1e6);
          case "exponential":
            return rng.exponential(2e6);
          case "lognormal-wide":
            return Math.exp(rng.uniformRange(-10, 30)); // 17 decades
          case "with-zeros":
            return rng.bernoulli(0.3) ? 0 : rng.exponential(10);
          default:
            return rng.intRange(1, 40);
        }
      };
      const values = Array.from({ length: n }, draw);
      // Room for every bucket the data needs: the guarantee holds until maxBuckets is reached.
      const h = new Histogram({ relativeAccuracy: alpha, exactLimit: 16, maxBuckets: 100_000 });
      for (const v of values) h.add(v);
      const exact = exactQuantiles(values);
      QS.forEach((q, i) => {
        const estimate = h.quantile(q);
        // A bound of α·v, with 1e-12 of slack for the floating-point bucket index.
        expect(Math.abs(estimate - exact[i]!)).toBeLessThanOrEqual(
          alpha * exact[i]! * (1 + 1e-12) + 1e-300,
        );
      });
      expect(h.min).toBe(Math.min(...values));
      expect(h.max).toBe(Math.max(...values));
    },
  );

  it("keeps memory bounded: past maxBuckets the low buckets merge and high quantiles stay accurate", () => {
    const h = new Histogram({ relativeAccuracy: 0.01, exactLimit: 0, maxBuckets: 64 });
    const values: number[] = [];
    for (let e = -20; e <= 20; e += 0.01) values.push(10 ** e);
    for (const v of values) h.add(v);
    const sorted = [...values].sort((a, b) => a - b);
    for (const q of [0.99, 0.999, 1]) {
      const exact = nearestRank(sorted, q);
      expect(Math.abs(h.quantile(q) - exact)).toBeLessThanOrEqual(0.01 * exact * (1 + 1e-12));
    }
    expect(h.count).toBe(values.length);
  });
});
