import { describe, expect, it } from "vitest";
import { markingProbability, PRESETS, params } from "./params.js";

describe("DCQCN parameters", () => {
  it("resolves the paper preset by default, with the values of spec section 4.5", () => {
    const p = params.parse({});
    expect(p).toMatchObject({
      preset: "paper",
      variant: "paper",
      kminBytes: 5_000,
      kmaxBytes: 200_000,
      pmax: 0.01,
      g: 1 / 256,
      cnpIntervalUs: 50,
      alphaTimerUs: 55,
      increaseTimerUs: 55,
      byteCounterBytes: 10_000_000,
      fastRecoverySteps: 5,
      additiveIncreaseMbps: 40,
      hyperIncreaseMbps: 200,
      minRateMbps: 100,
      initialAlpha: 1,
      clampTargetRate: true,
      markAt: "dequeue",
      alphaBeforeCut: false,
    });
  });

  it("resolves the nic preset with the benchmark's values (scenarios/bench/uniform256-dcqcn.yaml)", () => {
    expect(params.parse({ preset: "nic" })).toMatchObject({
      variant: "nic",
      kminBytes: 400_000,
      kmaxBytes: 1_600_000,
      pmax: 0.2,
      g: 1 / 256,
      increaseTimerUs: 300,
      alphaTimerUs: 1,
      decreaseCheckUs: 4,
      additiveIncreaseMbps: 20,
      hyperIncreaseMbps: 200,
      minRateMbps: 1000,
      fastRecoverySteps: 1,
      byteCounterBytes: null,
      clampTargetRate: false,
      ackEveryPackets: 1,
    });
  });

  it("lets every parameter override its preset", () => {
    const p = params.parse({
      preset: "nic",
      kminBytes: 1,
      pmax: 1,
      byteCounterBytes: 5e6,
      variant: "paper",
    });
    expect([p.kminBytes, p.pmax, p.byteCounterBytes, p.variant, p.kmaxBytes]).toEqual([
      1,
      1,
      5e6,
      "paper",
      PRESETS.nic.kmaxBytes,
    ]);
  });

  it("rejects unknown keys, bad ranges and Kmin above Kmax, naming the field", () => {
    const issues = (input: unknown) =>
      params.safeParse(input).error?.issues.map((i) => i.path.join(".")) ?? [];
    expect(issues({ kmin: 3 })).toEqual([""]);
    expect(issues({ pmax: 2 })).toEqual(["pmax"]);
    expect(issues({ g: 0 })).toEqual(["g"]);
    expect(issues({ cnpIntervalUs: 0 })).toEqual(["cnpIntervalUs"]);
    expect(issues({ kminBytes: 300_000 })).toEqual(["kminBytes"]);
    expect(issues({ ackEveryPackets: 0.5 })).toEqual(["ackEveryPackets"]);
  });

  it("marks with RED's curve: 0 up to Kmin, linear to Pmax at Kmax, 1 above", () => {
    const p = params.parse({ kminBytes: 100, kmaxBytes: 300, pmax: 0.4 });
    expect([0, 100, 150, 200, 300, 301].map((q) => markingProbability(p, q))).toEqual([
      0, 0, 0.1, 0.2, 0.4, 1,
    ]);
    const step = params.parse({ kminBytes: 100, kmaxBytes: 100, pmax: 1 });
    expect([100, 101].map((q) => markingProbability(step, q))).toEqual([0, 1]);
  });
});

describe("DCQCN parameters for TCD", () => {
  it("leaves the TCD reaction off unless asked for", () => {
    expect(params.parse({}).tcdReaction).toBe(false);
    expect(params.parse({ preset: "tcd" }).tcdReaction).toBe(false);
    expect(params.parse({ tcdReaction: true }).tcdReaction).toBe(true);
  });

  it("resolves the tcd preset with the TCD authors' reference values (configburst.txt, cells of 1030 B)", () => {
    expect(params.parse({ preset: "tcd" })).toMatchObject({
      variant: "paper",
      kminBytes: 5_150,
      kmaxBytes: 206_000,
      pmax: 0.01,
      g: 1 / 256,
      cnpIntervalUs: 50,
      alphaTimerUs: 55,
      increaseTimerUs: 55,
      byteCounterBytes: 10_000_000,
      fastRecoverySteps: 5,
      additiveIncreaseMbps: 40,
      hyperIncreaseMbps: 200,
      minRateMbps: 100,
      initialAlpha: 0.5,
      clampTargetRate: true,
    });
  });

  it("refuses the reaction with the nic variant, naming the field", () => {
    const error = params.safeParse({ preset: "nic", tcdReaction: true }).error;
    expect(error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["tcdReaction", 'needs variant "paper" (CNPs that carry the TCD code), got "nic"'],
    ]);
    expect(params.safeParse({ preset: "nic", variant: "paper", tcdReaction: true }).success).toBe(
      true,
    );
  });
});
