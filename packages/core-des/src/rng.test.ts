import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { createRng } from "./rng.js";

const first8 = (s: { nextU32(): number }) => Array.from({ length: 8 }, () => s.nextU32());

describe("RngStream known answers", () => {
  // Produced by an independent C implementation with native 64-bit arithmetic
  // (SplitMix64 key derivation, FNV-1a-64 names, the xoshiro128** reference step), so these
  // pin down identical sequences on every platform.
  it.each([
    [
      0,
      [
        443589289, 1472243107, 1913443415, 1536281227, 1858345083, 1894333337, 3545360587,
        1611985423,
      ],
    ],
    [
      42,
      [
        1552505907, 4113083374, 3991650357, 132206321, 2245463392, 3109436508, 2332586130,
        3647332003,
      ],
    ],
    [
      -1,
      [2381295930, 548049140, 484646835, 1918055202, 1356525863, 535407991, 915233281, 1607002979],
    ],
    [
      Number.MAX_SAFE_INTEGER,
      [
        3557535788, 3614400023, 1087714116, 2034982396, 3513393934, 2078463231, 2187281550,
        880331647,
      ],
    ],
  ])("seed %d matches the C reference", (seed, expected) => {
    expect(first8(createRng(seed))).toEqual(expected);
  });

  it("named streams match the C reference, including UTF-8 names", () => {
    const root = createRng(42);
    expect(first8(root.split("switch").split("3"))).toEqual([
      3093306666, 2679352336, 2706244673, 1712196019, 695515916, 806083801, 3179642803, 3014654875,
    ]);
    expect(first8(root.split("host"))).toEqual([
      2454145165, 2910827720, 1186546515, 1094301289, 428666693, 2362751686, 3616308381, 4015468873,
    ]);
    expect(first8(root.split("héte"))).toEqual([
      1974797811, 3820132708, 37472350, 29062379, 2982492822, 3840018467, 3629337261, 4014276824,
    ]);
  });
});

describe("RngStream properties", () => {
  test.prop([fc.integer(), fc.string({ minLength: 1 }), fc.nat({ max: 50 })])(
    "a named stream reproduces, whatever was drawn elsewhere before it was split",
    (seed, name, drawnBefore) => {
      const a = createRng(seed);
      const b = createRng(seed);
      for (let i = 0; i < drawnBefore; i++) b.nextU32();
      b.split("other");
      expect(first8(a.split(name))).toEqual(first8(b.split(name)));
    },
  );

  test.prop([fc.integer(), fc.string({ minLength: 1 }), fc.string({ minLength: 1 })])(
    "different names give different streams",
    (seed, x, y) => {
      fc.pre(x !== y);
      const root = createRng(seed);
      expect(first8(root.split(x))).not.toEqual(first8(root.split(y)));
    },
  );

  test.prop([fc.integer(), fc.integer({ min: -1000, max: 1000 }), fc.nat({ max: 5000 })])(
    "intRange stays within [lo, hi]",
    (seed, lo, span) => {
      const rng = createRng(seed);
      for (let i = 0; i < 50; i++) {
        const x = rng.intRange(lo, lo + span);
        expect(Number.isInteger(x) && x >= lo && x <= lo + span).toBe(true);
      }
    },
  );

  test.prop([fc.integer()])("uniform is in [0, 1) and exponential is ≥ 0", (seed) => {
    const rng = createRng(seed);
    for (let i = 0; i < 100; i++) {
      const u = rng.uniform();
      expect(u >= 0 && u < 1).toBe(true);
      expect(rng.exponential(3)).toBeGreaterThanOrEqual(0);
    }
  });
});

describe("RngStream distributions (fixed seed, bounds at > 5 standard errors)", () => {
  const n = 200_000;

  it("uniform has mean 1/2 and variance 1/12", () => {
    const rng = createRng(7).split("uniform");
    let sum = 0;
    let sumSq = 0;
    for (let i = 0; i < n; i++) {
      const u = rng.uniform();
      sum += u;
      sumSq += u * u;
    }
    const mean = sum / n;
    expect(Math.abs(mean - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / n));
    // Standard error of the sample variance of U(0,1): sqrt((1/80 − 1/144) / n) ≈ 1.7e-4.
    expect(Math.abs(sumSq / n - mean * mean - 1 / 12)).toBeLessThan(
      5 * Math.sqrt((1 / 80 - 1 / 144) / n),
    );
  });

  it("exponential has the requested mean", () => {
    const rng = createRng(7).split("exp");
    let sum = 0;
    for (let i = 0; i < n; i++) sum += rng.exponential(2.5);
    // Standard error of the mean: 2.5 / sqrt(n).
    expect(Math.abs(sum / n - 2.5)).toBeLessThan((5 * 2.5) / Math.sqrt(n));
  });

  it("bernoulli hits with probability p", () => {
    const rng = createRng(7).split("bern");
    let hits = 0;
    for (let i = 0; i < n; i++) if (rng.bernoulli(0.3)) hits++;
    expect(Math.abs(hits / n - 0.3)).toBeLessThan(5 * Math.sqrt((0.3 * 0.7) / n));
  });

  it("intRange is uniform over a range that does not divide 2^32 (chi-square)", () => {
    const rng = createRng(7).split("int");
    const k = 7;
    const counts = new Array<number>(k).fill(0);
    for (let i = 0; i < n; i++) counts[rng.intRange(0, k - 1)]!++;
    const expected = n / k;
    const chi2 = counts.reduce((acc, c) => acc + (c - expected) ** 2 / expected, 0);
    // 6 degrees of freedom: P(chi2 > 22.46) = 0.001.
    expect(chi2).toBeLessThan(22.46);
  });

  it("intRange covers spans wider than 2^32", () => {
    const rng = createRng(7).split("wide");
    const hi = 2 ** 40;
    let max = 0;
    for (let i = 0; i < 1000; i++) {
      const x = rng.intRange(0, hi);
      expect(Number.isSafeInteger(x) && x >= 0 && x <= hi).toBe(true);
      max = Math.max(max, x);
    }
    expect(max).toBeGreaterThan(2 ** 32);
  });
});

describe("RngStream input checks", () => {
  it("rejects bad parameters with a message naming them", () => {
    const rng = createRng(1);
    expect(() => createRng(1.5)).toThrow(/seed must be a safe integer/);
    expect(() => rng.split("")).toThrow(/name must not be empty/);
    expect(() => rng.exponential(0)).toThrow(/mean must be finite and > 0/);
    expect(() => rng.bernoulli(1.1)).toThrow(/probability must be in \[0, 1\]/);
    expect(() => rng.intRange(3, 2)).toThrow(/lo ≤ hi/);
    expect(() => rng.pick([])).toThrow(/non-empty/);
  });

  it("keeps the path of nested streams", () => {
    expect(createRng(1).split("switch").split("3").path).toBe("switch/3");
  });

  it("shuffle returns a permutation", () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    const shuffled = createRng(3).shuffle([...items]);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(items);
    expect(shuffled).not.toEqual(items);
  });
});
