/**
 * Sampling an empirical CDF: sizes follow the piecewise-linear CDF (and not a plausible wrong
 * reading of the points), the stated mean and mean square are exact, and the draws depend only
 * on the stream.
 */
import { createRng } from "@cclab/core-des";
import { describe, expect, it } from "vitest";
import type { CdfPoints } from "./cdf-points.js";
import { cdfTable, sampleCdf } from "./cdf-table.js";
import { BUILT_IN_CDFS } from "./distributions/index.js";

/** P(size ≤ x) of a reading of the points, for x anywhere (not only at the points). */
type Cdf = (points: CdfPoints, x: number) => number;

/** The segment of `points` holding x: index i with points[i − 1][0] ≤ x < points[i][0]. */
function segment(points: CdfPoints, x: number): number {
  let i = 0;
  while (i < points.length && points[i]![0] <= x) i++;
  return i;
}

/** Ours: linear in bytes between points. */
const linear: Cdf = (points, x) => {
  const i = segment(points, x);
  if (i === 0) return 0;
  if (i === points.length) return 1;
  const [x0, p0] = points[i - 1]!;
  const [x1, p1] = points[i]!;
  return p0 + ((p1 - p0) * (x - x0)) / (x1 - x0);
};

/** A plausible wrong reading: linear in log(bytes) between points. */
const logLinear: Cdf = (points, x) => {
  const i = segment(points, x);
  if (i === 0) return 0;
  if (i === points.length) return 1;
  const [x0, p0] = points[i - 1]!;
  const [x1, p1] = points[i]!;
  return p0 + ((p1 - p0) * Math.log(x / x0)) / Math.log(x1 / x0);
};

/** Another: every size of a segment taken as its upper point (a step CDF). */
const upperPoint: Cdf = (points, x) => {
  const i = segment(points, x);
  return i === 0 ? 0 : points[i - 1]![1];
};

/**
 * Sizes x where the readings are compared: a whole size's CDF is the continuous one at x + ½
 * (rounding), so these are half-way sizes at the points and at ¼, ½, ¾ of every segment.
 */
function probes(points: CdfPoints): number[] {
  const xs: number[] = [];
  for (let i = 0; i < points.length; i++) {
    xs.push(points[i]![0] + 0.5);
    if (i === 0) continue;
    const [a, b] = [points[i - 1]![0], points[i]![0]];
    for (const f of [0.25, 0.5, 0.75]) xs.push(Math.floor(a + f * (b - a)) + 0.5);
  }
  return xs.filter((x) => x < points.at(-1)![0]);
}

/** Largest gap between the empirical CDF of sorted `sample` and `cdf` over the probes. */
function distance(sorted: Float64Array, points: CdfPoints, cdf: Cdf): number {
  let worst = 0;
  for (const x of probes(points)) {
    // Count of draws ≤ x by binary search.
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! <= x) lo = mid + 1;
      else hi = mid;
    }
    worst = Math.max(worst, Math.abs(lo / sorted.length - cdf(points, x)));
  }
  return worst;
}

const N = 1_000_000;
/**
 * Dvoretzky–Kiefer–Wolfowitz: the empirical CDF of N draws is further than ε from the true one
 * anywhere with probability ≤ 2·exp(−2Nε²), here 7·10⁻⁴. The wrong readings differ from ours
 * by more than 3ε at some probe of every CDF below (the closest: log-linear on Hadoop, 0.0063
 * at the probe 40 000 bytes; its segments span small ratios), so a sample within ε of ours is more
 * than 2ε from them.
 */
const TOLERANCE = 0.002;

const CUSTOM: CdfPoints = [
  [64, 0.1], // an atom: a tenth of the messages are 64 bytes
  [1000, 0.5],
  [2000, 0.5], // a flat step: no message between 1000 and 2000 bytes
  [100_000, 0.9],
  [1_000_000, 1],
];

const CASES: [string, CdfPoints][] = [
  ["websearch", BUILT_IN_CDFS.websearch],
  ["hadoop", BUILT_IN_CDFS.hadoop],
  ["custom", CUSTOM],
];

function draw(points: CdfPoints, seed: number, n: number): Float64Array {
  const rng = createRng(seed).split("size");
  const table = cdfTable(points);
  return Float64Array.from({ length: n }, () => sampleCdf(table, rng));
}

describe.each(CASES)("sampling %s", (_, points) => {
  const sample = draw(points, 7, N);
  const sorted = sample.slice().sort();

  it("draws whole sizes between the first and last point, never in a flat step", () => {
    const table = cdfTable(points);
    const first = points[0]![0];
    const last = points.at(-1)![0];
    expect(sample.every((b) => Number.isInteger(b) && b >= first && b <= last && b >= 1)).toBe(
      true,
    );
    if (points === CUSTOM) {
      expect(sample.filter((b) => b > 1000 && b < 2000)).toEqual(new Float64Array());
      expect(sample.filter((b) => b === 64).length / N).toBeCloseTo(0.1, 2);
    }
    expect(table.bytes.length).toBe(points.length);
  });

  it("follows the linear CDF within the DKW tolerance, and not log-linear or upper-point", () => {
    expect(distance(sorted, points, linear)).toBeLessThan(TOLERANCE);
    expect(distance(sorted, points, logLinear)).toBeGreaterThan(2 * TOLERANCE);
    expect(distance(sorted, points, upperPoint)).toBeGreaterThan(2 * TOLERANCE);
  });

  it("has the stated mean: the sample mean within 5 standard errors", () => {
    const { meanBytes, meanSquareBytes } = cdfTable(points);
    const sd = Math.sqrt(meanSquareBytes - meanBytes ** 2);
    const mean = sample.reduce((s, b) => s + b, 0) / N;
    expect(Math.abs(mean - meanBytes)).toBeLessThan((5 * sd) / Math.sqrt(N));
  });
});

describe("exact moments", () => {
  /** P(size = k) for every whole k, from the lengths of u that round to k. */
  function exactDistribution(points: CdfPoints): Map<number, number> {
    const weights = new Map<number, number>();
    const add = (k: number, p: number) => weights.set(k, (weights.get(k) ?? 0) + p);
    add(points[0]![0], points[0]![1]);
    for (let i = 1; i < points.length; i++) {
      const [a, p0] = points[i - 1]!;
      const [b, p1] = points[i]!;
      for (let k = a; k <= b; k++) {
        const lo = Math.max(a, k - 0.5);
        const hi = Math.min(b, k + 0.5);
        add(k, ((p1 - p0) * (hi - lo)) / (b - a));
      }
    }
    return weights;
  }

  it.each<CdfPoints>([
    [
      [1, 0],
      [3, 1],
    ],
    [
      [10, 0.5],
      [20, 1],
    ],
    [
      [5, 0.2],
      [6, 0.2],
      [40, 0.7],
      [41, 1],
    ],
    [[7, 1]],
  ])("mean and mean square of %j equal the enumerated distribution", (...points) => {
    const exact = exactDistribution(points);
    let mean = 0;
    let square = 0;
    for (const [k, p] of exact) {
      mean += k * p;
      square += k * k * p;
    }
    const table = cdfTable(points);
    expect(table.meanBytes).toBeCloseTo(mean, 9);
    expect(table.meanSquareBytes).toBeCloseTo(square, 9);
  });

  it("the mean is the trapezoid sum the HPCC generator converts loads with (getAvg)", () => {
    // [[1, 0], [3, 1]]: sizes 1, 2, 3 with weights ¼, ½, ¼.
    expect(
      cdfTable([
        [1, 0],
        [3, 1],
      ]).meanBytes,
    ).toBe(2);
    expect(
      cdfTable([
        [1, 0],
        [3, 1],
      ]).meanSquareBytes,
    ).toBeCloseTo(4.5, 12);
  });
});

describe("determinism", () => {
  it("the same seed draws the same sizes; another seed others", () => {
    const points = BUILT_IN_CDFS.websearch;
    expect(draw(points, 11, 1000)).toEqual(draw(points, 11, 1000));
    expect(draw(points, 12, 1000)).not.toEqual(draw(points, 11, 1000));
  });

  it("one draw takes exactly one uniform() from the stream", () => {
    const a = createRng(5).split("x");
    const b = createRng(5).split("x");
    sampleCdf(cdfTable(BUILT_IN_CDFS.hadoop), a);
    b.uniform();
    expect(a.nextU32()).toBe(b.nextU32());
  });

  it("makes one table per points array", () => {
    expect(cdfTable(BUILT_IN_CDFS.hadoop)).toBe(cdfTable(BUILT_IN_CDFS.hadoop));
  });
});
