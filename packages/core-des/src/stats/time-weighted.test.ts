import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { TimeWeightedAverage } from "./time-weighted.js";

describe("TimeWeightedAverage", () => {
  it("weights each value by how long it was held", () => {
    const q = new TimeWeightedAverage({ binWidthPs: 100 });
    q.set(0, 10); // 10 for 50 ps
    q.set(50, 30); // 30 for 100 ps
    q.add(150, -30); // 0 for 50 ps
    expect(q.mean(200)).toBe((10 * 50 + 30 * 100) / 200);
    expect(q.max).toBe(30);
    expect(q.min).toBe(0);
    expect(Array.from(q.binMeans(200))).toEqual([(10 * 50 + 30 * 50) / 100, (30 * 50) / 100]);
  });

  it("averages a partial last bin over its elapsed part, as a query, and rejects time going back", () => {
    const q = new TimeWeightedAverage({ startPs: 1000, initialValue: 4, binWidthPs: 100 });
    expect(Array.from(q.binMeans(1150))).toEqual([4, 4]);
    // The query moved nothing: an update before the queried time is still accepted.
    q.set(1100, 1);
    expect(Array.from(q.binMeans(1150))).toEqual([4, 1]);
    expect(q.mean(1150)).toBe((4 * 100 + 1 * 50) / 150);
    expect(() => q.set(1099, 2)).toThrow(/time went backwards/);
    expect(() => q.mean(1099)).toThrow(/time went backwards/);
    expect(() => new TimeWeightedAverage().binMeans(10)).toThrow(/binWidthPs/);
  });

  test.prop([
    fc.array(fc.tuple(fc.nat({ max: 50 }), fc.integer({ min: 0, max: 1000 })), { maxLength: 60 }),
    fc.integer({ min: 1, max: 40 }),
  ])("mean and bin means agree with integrating picosecond by picosecond", (steps, width) => {
    const q = new TimeWeightedAverage({ binWidthPs: width });
    const valueAt: number[] = [];
    let t = 0;
    let v = 0;
    for (const [dt, next] of steps) {
      for (let i = 0; i < dt; i++) valueAt[t + i] = v;
      t += dt;
      q.set(t, next);
      v = next;
    }
    const end = t + 7;
    for (let i = t; i < end; i++) valueAt[i] = v;
    const sum = valueAt.reduce((a, b) => a + b, 0);
    expect(q.mean(end)).toBeCloseTo(sum / end, 9);
    const bins = q.binMeans(end);
    bins.forEach((m, b) => {
      const slice = valueAt.slice(b * width, Math.min((b + 1) * width, end));
      expect(m).toBeCloseTo(slice.reduce((a, x) => a + x, 0) / slice.length, 9);
    });
  });
});
