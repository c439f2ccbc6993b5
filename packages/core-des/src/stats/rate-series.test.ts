import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { RateSeries } from "./rate-series.js";

describe("RateSeries", () => {
  it("turns bytes per bin into Gb/s", () => {
    // 1 µs bins: 125 000 bytes in one bin is 1 000 000 bits per µs = 1000 Gb/s.
    const s = new RateSeries(1_000_000);
    s.add(0, 1250);
    s.add(999_999, 1250);
    s.add(1_000_000, 2500); // the boundary belongs to the next bin
    s.add(3_500_000, 125);
    expect(Array.from(s.gbps())).toEqual([20, 20, 0, 1]);
    expect(s.totalBytes).toBe(5125);
    expect(s.binStartPs(3)).toBe(3_000_000);
  });

  it("counts from its start time and pads to a requested end", () => {
    const s = new RateSeries(1000, 5000);
    s.add(5500, 10);
    expect(Array.from(s.bytesPerBin(9000))).toEqual([10, 0, 0, 0]);
    expect(() => s.add(4999, 1)).toThrow(/before the series start/);
    expect(() => new RateSeries(0)).toThrow(/binWidthPs/);
  });

  // Times are drawn as a bin, a position in it and the width, so the series spans at most
  // 20 001 bins: drawn on their own (up to 10^7 ps with 1 ps bins) a run allocated tens of MB
  // per case and the property took over 5 s on a loaded CI machine.
  test.prop([
    fc.array(
      fc.tuple(
        fc.nat({ max: 20_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.nat({ max: 9000 }),
      ),
      { maxLength: 200 },
    ),
    fc.integer({ min: 1, max: 3_000_000 }),
  ])(
    "bins partition the bytes: their sum is the total and each lands in its bin",
    (drawn, width) => {
      const samples = drawn.map(
        ([bin, at, b]) => [bin * width + Math.floor(at * width), b] as const,
      );
      const s = new RateSeries(width);
      const expected = new Map<number, number>();
      for (const [t, b] of samples) {
        s.add(t, b);
        const bin = Math.floor(t / width);
        expected.set(bin, (expected.get(bin) ?? 0) + b);
      }
      const bins = s.bytesPerBin();
      expect(bins.reduce((a, b) => a + b, 0)).toBe(samples.reduce((a, [, b]) => a + b, 0));
      for (const [bin, bytes] of expected) expect(bins[bin]).toBe(bytes);
    },
  );
});
