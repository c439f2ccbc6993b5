import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  assertTimePs,
  formatTimePs,
  isTimePs,
  MAX_TIME_PS,
  msToPs,
  nsToPs,
  psToUs,
  rateGbps,
  serializationPs,
  sToPs,
  usToPs,
} from "./time.js";

describe("time conversions", () => {
  it("convert to integer picoseconds, absorbing decimal representation error", () => {
    expect(nsToPs(1.1)).toBe(1100);
    expect(usToPs(2.5)).toBe(2_500_000);
    expect(msToPs(0.001)).toBe(1_000_000);
    expect(sToPs(1)).toBe(1e12);
    expect(psToUs(1_500_000)).toBe(1.5);
  });

  it("reject negative, non-finite and unrepresentable durations", () => {
    expect(() => nsToPs(-1)).toThrow(/non-negative/);
    expect(() => usToPs(Number.POSITIVE_INFINITY)).toThrow(/finite/);
    expect(() => sToPs(10_000)).toThrow(/largest representable time/);
  });

  it("guard integer, non-negative, safe times", () => {
    expect(assertTimePs(0)).toBe(0);
    expect(assertTimePs(MAX_TIME_PS)).toBe(MAX_TIME_PS);
    for (const bad of [-1, 1.5, 2 ** 53, Number.NaN]) {
      expect(() => assertTimePs(bad, "startPs")).toThrow(/startPs must be a non-negative integer/);
      expect(isTimePs(bad)).toBe(false);
    }
  });

  it("formats with an adaptive unit", () => {
    expect(formatTimePs(512)).toBe("512 ps");
    expect(formatTimePs(1_500)).toBe("1.5 ns");
    expect(formatTimePs(150_000_000)).toBe("150 µs");
    expect(formatTimePs(2 * 1e9)).toBe("2 ms");
    expect(formatTimePs(3e12)).toBe("3 s");
  });
});

describe("serializationPs", () => {
  it("matches docs/model.md: ceil(bytes × 8000 / rate) ps", () => {
    expect(serializationPs(2048, 20)).toBe(819_200); // an IB MTU at 20 Gb/s
    expect(serializationPs(64, 100)).toBe(5_120);
    expect(serializationPs(2048, 13.5)).toBe(1_213_630); // 1 213 629.6… rounds up
    expect(serializationPs(1, 0.1)).toBe(80_000); // 80000.00000000001 in binary
    expect(serializationPs(0, 40)).toBe(0);
  });

  test.prop([
    fc.integer({ min: 0, max: 1 << 24 }),
    fc.double({ min: 0.001, max: 1600, noNaN: true }),
  ])("is the least integer not below the exact time, up to float rounding", (bytes, rate) => {
    const ps = serializationPs(bytes, rate);
    const exact = (bytes * 8000) / rate;
    expect(Number.isSafeInteger(ps)).toBe(true);
    expect(ps).toBeGreaterThanOrEqual(exact * (1 - 1e-9));
    expect(ps - 1).toBeLessThan(exact);
  });

  test.prop([
    fc.integer({ min: 1, max: 1 << 20 }),
    fc.constantFrom(1, 2, 4, 8, 10, 20, 25, 40, 50, 100, 200, 400),
  ])(
    "is exact for rates that divide 8000 bits per byte, and rateGbps inverts it",
    (bytes, rate) => {
      expect(serializationPs(bytes, rate)).toBe((bytes * 8000) / rate);
      expect(rateGbps(bytes, serializationPs(bytes, rate))).toBe(rate);
    },
  );

  it("rejects zero or negative rates and negative sizes", () => {
    expect(() => serializationPs(100, 0)).toThrow(/rateGbps must be a finite positive number/);
    expect(() => serializationPs(100, -5)).toThrow(/rateGbps/);
    expect(() => serializationPs(-1, 10)).toThrow(/bytes must be/);
  });
});
