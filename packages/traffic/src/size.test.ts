import { createRng } from "@cclab/core-des";
import { describe, expect, it } from "vitest";
import { type MessageSize, meanBytes, meanSquareBytes, sampleBytes, sizeSchema } from "./size.js";

const SIZES: MessageSize[] = [
  { kind: "fixed", bytes: 4096 },
  { kind: "bimodal", smallBytes: 64, largeBytes: 65_536, largeFraction: 0.1 },
  { kind: "uniform", minBytes: 100, maxBytes: 10_000 },
  { kind: "uniform", minBytes: 7, maxBytes: 7 },
];
// (CDF sizes have their own tests: cdf-size.test.ts.)

describe("message sizes", () => {
  it.each(SIZES)("draws whole bytes in range with the stated mean ($kind)", (size) => {
    const rng = createRng(3).split("size");
    const n = 20_000;
    const seen = new Set<number>();
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const b = sampleBytes(size, rng);
      seen.add(b);
      sum += b;
    }
    const allowed = (b: number) =>
      Number.isInteger(b) &&
      (size.kind === "fixed"
        ? b === size.bytes
        : size.kind === "bimodal"
          ? b === size.smallBytes || b === size.largeBytes
          : size.kind === "uniform" && b >= size.minBytes && b <= size.maxBytes);
    expect([...seen].filter((b) => !allowed(b))).toEqual([]);
    const mean = meanBytes(size);
    const variance = meanSquareBytes(size) - mean ** 2;
    // The sample mean lies within 5 standard errors of the mean (a 1-in-1.7-million miss).
    expect(Math.abs(sum / n - mean)).toBeLessThanOrEqual(5 * Math.sqrt(variance / n) + 1e-9);
  });

  it("states E[S²] exactly (the variance the load tests' bounds use)", () => {
    expect(meanSquareBytes({ kind: "fixed", bytes: 3 })).toBe(9);
    // (1 + 4 + 9 + 16) / 4: the discrete uniform, not the continuous (max − min)²/12.
    expect(meanSquareBytes({ kind: "uniform", minBytes: 1, maxBytes: 4 })).toBeCloseTo(7.5, 12);
    expect(meanSquareBytes({ kind: "uniform", minBytes: 7, maxBytes: 7 })).toBe(49);
    expect(
      meanSquareBytes({ kind: "bimodal", smallBytes: 2, largeBytes: 10, largeFraction: 0.25 }),
    ).toBeCloseTo(0.75 * 4 + 0.25 * 100, 12);
    expect(meanBytes({ kind: "bimodal", smallBytes: 2, largeBytes: 10, largeFraction: 0.25 })).toBe(
      4,
    );
  });

  it("a fixed size draws no random numbers", () => {
    const a = createRng(1).split("x");
    const b = createRng(1).split("x");
    sampleBytes({ kind: "fixed", bytes: 10 }, a);
    expect(a.nextU32()).toBe(b.nextU32());
  });

  it("the schema rejects impossible sizes", () => {
    expect(sizeSchema.safeParse({ kind: "uniform", minBytes: 10, maxBytes: 9 }).success).toBe(
      false,
    );
    expect(sizeSchema.safeParse({ kind: "fixed", bytes: 0 }).success).toBe(false);
    expect(sizeSchema.safeParse({ kind: "fixed", bytes: 1.5 }).success).toBe(false);
    expect(sizeSchema.safeParse({ kind: "fixed", bytes: 8, extra: 1 }).success).toBe(false);
    expect(
      sizeSchema.safeParse({ kind: "bimodal", smallBytes: 1, largeBytes: 2, largeFraction: 1.1 })
        .success,
    ).toBe(false);
    expect(sizeSchema.safeParse({ kind: "lognormal", bytes: 8 }).success).toBe(false);
    const error = sizeSchema.safeParse({ kind: "uniform", minBytes: 10, maxBytes: 9 }).error;
    expect(error?.issues[0]?.path).toEqual(["maxBytes"]);
  });
});
