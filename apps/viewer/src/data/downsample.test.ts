import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { downsample } from "./downsample.js";
import type { SeriesData } from "./types.js";

const series = (n: number, f: (i: number) => number | null): SeriesData => ({
  name: "s",
  x: Array.from({ length: n }, (_, i) => i * 10),
  lines: [{ key: "a", y: Array.from({ length: n }, (_, i) => f(i)) }],
  full: true,
});

describe("downsample", () => {
  it("returns a range with few samples at full resolution, one sample beyond each edge", () => {
    const d = downsample(
      series(100, (i) => i),
      200,
      300,
      1000,
    );
    expect(d.full).toBe(true);
    expect(d.x[0]).toBe(190);
    expect(d.x[d.x.length - 1]).toBe(310);
  });

  it("keeps every bucket's extremes in the order they occur", () => {
    // A single-sample spike among 10 000 samples must survive reduction to 100 points.
    const d = downsample(
      series(10_000, (i) => (i === 4321 ? 99 : i === 777 ? -5 : 1)),
      0,
      1e9,
      100,
    );
    expect(d.full).toBe(false);
    expect(d.x.length).toBeLessThanOrEqual(102);
    const y = d.lines[0]!.y;
    expect(Math.max(...(y as number[]))).toBe(99);
    expect(Math.min(...(y as number[]))).toBe(-5);
  });

  it("keeps gaps as gaps", () => {
    const d = downsample(
      series(1000, () => null),
      0,
      1e9,
      10,
    );
    expect(d.lines[0]!.y.every((v) => v === null)).toBe(true);
  });

  test.prop([
    fc.array(fc.float({ noNaN: true, min: -1e6, max: 1e6 }), { minLength: 1, maxLength: 500 }),
    fc.integer({ min: 4, max: 60 }),
  ])(
    "any series: x stays sorted, the range's max and min are kept, at most points + 4 x values",
    (ys, points) => {
      const data: SeriesData = {
        name: "s",
        x: ys.map((_, i) => i),
        lines: [{ key: "a", y: ys }],
        full: true,
      };
      const d = downsample(data, 0, ys.length, points);
      expect(d.x.length).toBeLessThanOrEqual(Math.max(points, 4) + 4);
      for (let i = 1; i < d.x.length; i++) expect(d.x[i]!).toBeGreaterThanOrEqual(d.x[i - 1]!);
      const out = d.lines[0]!.y as number[];
      expect(Math.max(...out)).toBe(Math.max(...ys));
      expect(Math.min(...out)).toBe(Math.min(...ys));
    },
  );
});
