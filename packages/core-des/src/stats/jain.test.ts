import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { jainIndex } from "./jain.js";

describe("jainIndex", () => {
  it("is 1 for equal shares and 1/n when one flow takes all", () => {
    expect(jainIndex([5, 5, 5, 5])).toBe(1);
    expect(jainIndex([0, 0, 0])).toBe(1);
    expect(jainIndex([10, 0, 0, 0])).toBe(0.25);
    expect(jainIndex([1, 2])).toBeCloseTo(0.9, 12); // 9 / (2 · 5)
  });

  it("rejects empty input and negative or non-finite shares", () => {
    expect(() => jainIndex([])).toThrow(/at least one value/);
    expect(() => jainIndex([1, -1])).toThrow(/index 1/);
  });

  // Shares are 0 or ≥ 1e-200: scaling a subnormal by 1e-3 would underflow to 0 and change
  // the data itself, not the index.
  const share = fc.oneof(fc.constant(0), fc.double({ min: 1e-200, max: 1e6, noNaN: true }));
  test.prop([
    fc.array(share, { minLength: 1, maxLength: 50 }),
    fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
  ])("lies in [1/n, 1] and ignores the unit", (xs, scale) => {
    const j = jainIndex(xs);
    expect(j).toBeGreaterThanOrEqual(1 / xs.length - 1e-12);
    expect(j).toBeLessThanOrEqual(1 + 1e-12);
    expect(jainIndex(xs.map((x) => x * scale))).toBeCloseTo(j, 9);
  });
});
