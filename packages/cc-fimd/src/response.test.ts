import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  lowestUnflooredRate,
  RESPONSE_NAMES,
  type ResponseName,
  type ResponseRates,
  responseFunction,
} from "./response.js";

const RATES: ResponseRates = { m: 2, minRate: 0.1, maxRate: 10 };

const ratesArb = fc.record({
  m: fc.double({ min: 1.05, max: 8, noNaN: true }),
  minFraction: fc.double({ min: 1e-4, max: 0.1, noNaN: true }),
  maxRate: fc.double({ min: 1, max: 400, noNaN: true }),
});

/** Time from f_dec(r) back to r by unmarked ACKs, one every 1/rate, in packet times. */
function recoveryTime(name: ResponseName, rates: ResponseRates, r: number): number {
  const f = responseFunction(name, rates);
  let rate = f.decrease(r);
  let t = 0;
  while (rate < r * (1 - 1e-12)) {
    t += 1 / rate;
    rate = f.increase(rate);
  }
  return t;
}

describe("response functions (seed 002 L320–342)", () => {
  it("decrease and increase as the slides write them", () => {
    const fimd = responseFunction("fimd", RATES);
    expect(fimd.decrease(4)).toBe(2);
    expect(fimd.increase(0.4)).toBeCloseTo(0.4 * 2 ** 0.25, 12);
    const lipd = responseFunction("lipd", RATES);
    // ipd 0 → 1: R_max / 2; ipd 1 → 2: R_max / 3.
    expect(lipd.decrease(10)).toBeCloseTo(5, 12);
    expect(lipd.decrease(5)).toBeCloseTo(10 / 3, 12);
    expect(lipd.increase(5)).toBeCloseTo(5 / 0.99, 12);
    const aimd = responseFunction("aimd", RATES);
    expect(aimd.decrease(4)).toBe(2);
    // + (m − 1)·R_min² / r per ACK: 0.01 / 0.5.
    expect(aimd.increase(0.5)).toBeCloseTo(0.52, 12);
  });

  it("refuses m ≤ 1 and R_min outside (0, R_max)", () => {
    expect(() => responseFunction("fimd", { ...RATES, m: 1 })).toThrow(/m must be > 1/);
    expect(() => responseFunction("lipd", { ...RATES, minRate: 10 })).toThrow(/minRate/);
  });

  for (const name of RESPONSE_NAMES) {
    test.prop([ratesArb, fc.double({ min: 0, max: 1, noNaN: true })])(
      `${name}: congestion avoidance, f_inc(f_dec(r)) ≤ r, wherever a decrease stays at or above R_min`,
      ({ m, minFraction, maxRate }, at) => {
        const rates = { m, minRate: minFraction * maxRate, maxRate };
        const low = lowestUnflooredRate(name, rates);
        fc.pre(low < maxRate);
        const r = low + at * (maxRate - low);
        const f = responseFunction(name, rates);
        expect(f.decrease(r)).toBeGreaterThanOrEqual(rates.minRate * (1 - 1e-12));
        expect(f.increase(f.decrease(r))).toBeLessThanOrEqual(r * (1 + 1e-12));
      },
    );

    it(`${name}: the limiting case, equality where the decrease lands on R_min (L304–306)`, () => {
      const f = responseFunction(name, RATES);
      const low = lowestUnflooredRate(name, RATES);
      expect(f.decrease(low)).toBeCloseTo(RATES.minRate, 12);
      expect(f.increase(f.decrease(low))).toBeCloseTo(low, 12);
    });
  }

  it("the condition fails for a faster increase: it separates a right f_inc from a wrong one", () => {
    const f = responseFunction("fimd", RATES);
    const r = lowestUnflooredRate("fimd", RATES);
    // FIMD with twice the exponent: one unmarked ACK at R_min overshoots the rate it came from.
    const tooFast = (x: number) => x * RATES.m ** ((2 * RATES.minRate) / x);
    expect(tooFast(f.decrease(r))).toBeGreaterThan(r * 1.5);
  });

  it("recovery time: FIMD and LIPD recover in 1/R_min at every rate, AIMD slower as r grows (L307–312, L337)", () => {
    const tMin = 1 / RATES.minRate;
    for (const r of [0.5, 1, 2, 5, 10]) {
      for (const name of ["fimd", "lipd"] as const) {
        const t = recoveryTime(name, RATES, r);
        // The last ACK overshoots by at most one packet time at the decreased rate.
        expect(t).toBeGreaterThanOrEqual(tMin * (1 - 1e-9));
        expect(t).toBeLessThanOrEqual(tMin + 1 / responseFunction(name, RATES).decrease(r));
      }
    }
    const aimd = [0.5, 1, 2, 5, 10].map((r) => recoveryTime("aimd", RATES, r));
    for (let i = 1; i < aimd.length; i++) expect(aimd[i]!).toBeGreaterThan(aimd[i - 1]!);
    // r / (m·R_min²) in the continuous limit: 500 packet times at 10 Gb/s.
    expect(aimd[4]!).toBeCloseTo(10 / (2 * 0.01), -1);
  });
});
