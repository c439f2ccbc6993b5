import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { feedback, gains, PRESETS, params } from "./params.js";

describe("parameters", () => {
  it("resolve every preset: the preset's values, then the defaults of the extra keys", () => {
    for (const preset of Object.keys(PRESETS) as (keyof typeof PRESETS)[]) {
      expect(params.parse({ preset })).toEqual({
        ...PRESETS[preset],
        preset,
        bcnZeroBackoffUs: 100,
        rateLimiters: "per-flow",
        bcnFrameBytes: 64,
      });
    }
    expect(params.parse({}).preset).toBe("reference");
  });

  it("limiters per congestion point only in mode bcn", () => {
    expect(params.parse({ mode: "bcn", rateLimiters: "per-congestion-point" }).rateLimiters).toBe(
      "per-congestion-point",
    );
    const r = params.safeParse({ mode: "e2cm", rateLimiters: "per-congestion-point" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["rateLimiters"]);
  });

  it("the reference set is the slides' E2CM r1.0 (seed L315–332)", () => {
    expect(params.parse({})).toMatchObject({
      mode: "e2cm",
      w: 2,
      qeqBytes: 75_000,
      rateUnitMbps: 1,
      minRateMbps: 1,
      sampleEveryBytes: 75_000,
      bcnMax: true,
      qscBytes: 280_000,
      bcnZero: false,
      flowQeqBytes: 15_000,
      flowQmaxBytes: 56_000,
      probeEveryBytes: 75_000,
    });
  });

  it("the orientative sets: IG without BCN_MAX, OG with it at 280 500 B; Ru = Rmin = 2 Mb/s", () => {
    const ig = params.parse({ preset: "orientative-ig" });
    const og = params.parse({ preset: "orientative-og" });
    expect([ig.bcnMax, og.bcnMax, og.qscBytes]).toEqual([false, true, 280_500]);
    for (const p of [ig, og]) {
      expect([p.rateUnitMbps, p.minRateMbps, p.sampleEveryBytes, p.probeEveryBytes]).toEqual([
        2, 2, 75_000, 15_000,
      ]);
    }
  });

  it("keys given override the preset's", () => {
    const p = params.parse({ preset: "orientative-ig", mode: "bcn", w: 0, bcnZero: true });
    expect(p).toMatchObject({ preset: "orientative-ig", mode: "bcn", w: 0, bcnZero: true });
    expect(p.qeqBytes).toBe(75_000);
  });

  it("rejects unknown keys, unknown presets and bad values, naming the field", () => {
    const unknown = params.safeParse({ qeqKB: 75 });
    expect(unknown.success).toBe(false);
    expect(JSON.stringify(unknown.error?.issues)).toContain("qeqKB");
    expect(params.safeParse({ preset: "paper" }).success).toBe(false);
    expect(params.safeParse({ mode: "qcn" }).success).toBe(false);
    const negative = params.safeParse({ qeqBytes: -1 });
    expect(negative.error?.issues[0]?.path).toEqual(["qeqBytes"]);
    expect(params.safeParse({ bcnFrameBytes: 32 }).success).toBe(false);
  });
});

describe("gains (seed L248, L266, L315–332; spec 2.5, 3.6)", () => {
  const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

  it("reference at 10 Gb/s: Gd = 0.5/(5·75 000) = 1.333e-6, Gi = 0.005·(10e9/1e6)/375 000", () => {
    const g = gains(params.parse({}), 10);
    expect(rel(g.gdPerByte, 1.333e-6)).toBeLessThan(1e-3);
    expect(g.gdPerByte).toBeCloseTo(0.5 / 375_000, 15);
    expect(g.giPerByte).toBeCloseTo((0.005 * (10e9 / 1e6)) / 375_000, 15);
    // Per flow: 5× the gains, with the switch's Qeq in the denominator (spec 3.6).
    expect(g.flowGdPerByte).toBeCloseTo(2.5 / 375_000, 15);
    expect(g.flowGiPerByte).toBeCloseTo((0.025 * (10e9 / 1e6)) / 375_000, 15);
  });

  it("orientative IG: Gi = 6.6667e-4 with Ru = 2 Mb/s (L248); OG: 6.6667e-5 (L266)", () => {
    const ig = gains(params.parse({ preset: "orientative-ig" }), 10);
    const og = gains(params.parse({ preset: "orientative-og" }), 10);
    expect(rel(ig.giPerByte, 6.6667e-4)).toBeLessThan(1e-4);
    expect(rel(og.giPerByte, 6.6667e-5)).toBeLessThan(1e-4);
    expect(rel(ig.gdPerByte, 1.333e-6)).toBeLessThan(1e-3);
    expect(og.gdPerByte).toBe(ig.gdPerByte);
  });

  test.prop(
    [
      fc.constantFrom(...(Object.keys(PRESETS) as (keyof typeof PRESETS)[])),
      fc.constantFrom(1, 10, 40, 100),
    ],
    { numRuns: 20 },
  )(
    "a saturated Fb cuts by gdScale and raises by giScale·R_link; a saturated per-flow Fb the same",
    (preset, lineRateGbps) => {
      const p = params.parse({ preset });
      const g = gains(p, lineRateGbps);
      const fbMax = (2 * p.w + 1) * p.qeqBytes;
      const flowFbMax = (2 * p.w + 1) * p.flowQeqBytes;
      expect(g.gdPerByte * fbMax).toBeCloseTo(p.gdScale, 12);
      // Gi·Fb·Ru, in Gb/s.
      expect((g.giPerByte * fbMax * p.rateUnitMbps) / 1000).toBeCloseTo(
        p.giScale * lineRateGbps,
        12,
      );
      // "E2CM gains are 5 times as high, because Qeq is 5 times as low" (L249).
      expect(g.flowGdPerByte * flowFbMax).toBeCloseTo(g.gdPerByte * fbMax, 12);
      expect(g.flowGiPerByte * flowFbMax).toBeCloseTo(g.giPerByte * fbMax, 9);
    },
  );
});

describe("feedback (saturation: Qoff to ±Qeq, Qdelta to ±2Qeq)", () => {
  it("is Qoff − W·Qdelta inside the linear region", () => {
    expect(feedback(1000, 300, 75_000, 2)).toBe(400);
    expect(feedback(-5000, -1000, 75_000, 2)).toBe(-3000);
    expect(feedback(0, 0, 75_000, 2)).toBe(0);
  });

  it("clamps Qoff to ±Qeq and Qdelta to ±2Qeq", () => {
    expect(feedback(-1e9, 0, 75_000, 2)).toBe(-75_000);
    expect(feedback(1e9, 0, 75_000, 2)).toBe(75_000);
    expect(feedback(0, 1e9, 75_000, 2)).toBe(-300_000);
    expect(feedback(0, -1e9, 75_000, 2)).toBe(300_000);
    expect(feedback(-1e9, 1e9, 75_000, 2)).toBe(-375_000);
    expect(feedback(1e9, -1e9, 75_000, 2)).toBe(375_000);
    expect(feedback(75_000, -150_000, 75_000, 2)).toBe(375_000);
  });

  test.prop(
    [
      fc.double({ min: -1e7, max: 1e7, noNaN: true }),
      fc.double({ min: -1e7, max: 1e7, noNaN: true }),
      fc.integer({ min: 1, max: 300_000 }),
      fc.constantFrom(0, 0.5, 1, 2, 4),
    ],
    { numRuns: 300 },
  )("lies within ±(1 + 2W)·Qeq and is monotone in each argument", (qoff, qdelta, qeq, w) => {
    const fb = feedback(qoff, qdelta, qeq, w);
    expect(Math.abs(fb)).toBeLessThanOrEqual((1 + 2 * w) * qeq + 1e-6);
    expect(feedback(qoff + 1000, qdelta, qeq, w)).toBeGreaterThanOrEqual(fb);
    expect(feedback(qoff, qdelta + 1000, qeq, w)).toBeLessThanOrEqual(fb);
  });
});
