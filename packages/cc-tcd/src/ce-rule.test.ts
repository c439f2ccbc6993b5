import { createRng } from "@cclab/core-des";
import type { PortView } from "@cclab/fabric";
import { idlePort } from "@cclab/fabric/testing";
import { describe, expect, it } from "vitest";
import { infinibandRule, redProbability, redRule, thresholdBytesOf } from "./ce-rule.js";

const RED = { kMinBytes: 5_000, kMaxBytes: 15_000, pMax: 0.5 };

describe("RED CE rule", () => {
  it("rises linearly from 0 at Kmin to Pmax at Kmax, and is 1 above", () => {
    expect(redProbability(RED, 5_000)).toBe(0);
    expect(redProbability(RED, 10_000)).toBeCloseTo(0.25);
    expect(redProbability(RED, 15_000)).toBeCloseTo(0.5);
    expect(redProbability(RED, 15_001)).toBe(1);
  });

  it("marks at that rate", () => {
    const rule = redRule(RED, createRng(7).split("t"));
    let marks = 0;
    for (let i = 0; i < 40_000; i++) if (rule(0, 0, 10_000)) marks++;
    // ±0.01 is 4.6 standard deviations of 40 000 draws at 0.25, and tells 0.25 from 0.24 or 0.26.
    expect(Math.abs(marks / 40_000 - 0.25)).toBeLessThan(0.01);
    expect(rule(0, 0, 4_000)).toBe(false);
    expect(rule(0, 0, 20_000)).toBe(true);
  });
});

describe("InfiniBand CE rule (simplified IB CC threshold rule)", () => {
  const ib = { thresholdWeight: 15, thresholdBytes: null, markingRate: 0 };

  it("maps the Threshold weight to (16 − w)/16 of the input buffer, 0 to never", () => {
    expect(thresholdBytesOf(ib, 32_768)).toBe(2_048);
    expect(thresholdBytesOf({ ...ib, thresholdWeight: 1 }, 32_768)).toBe(30_720);
    expect(thresholdBytesOf({ ...ib, thresholdWeight: 0 }, 32_768)).toBeNull();
    expect(thresholdBytesOf({ ...ib, thresholdBytes: 999 }, 32_768)).toBe(999);
  });

  it("marks above the threshold only while the port is not held by flow control", () => {
    let held = false;
    const port: PortView = { ...idlePort(1), isBlocked: () => held };
    const rule = infinibandRule(ib, [port], Float64Array.of(2_048), createRng(1).split("t"));
    expect(rule(0, 0, 2_048)).toBe(false);
    expect(rule(0, 0, 2_049)).toBe(true);
    held = true;
    expect(rule(0, 0, 10_000)).toBe(false);
  });

  it("marks a selected packet with probability 1/(Marking_Rate + 1)", () => {
    const rule = infinibandRule(
      { ...ib, markingRate: 3 },
      [idlePort(1)],
      Float64Array.of(0),
      createRng(3).split("t"),
    );
    let marks = 0;
    for (let i = 0; i < 40_000; i++) if (rule(0, 0, 100)) marks++;
    // ±0.01 is 4.6 standard deviations of 40 000 draws at 0.25, and tells 0.25 from 0.24 or 0.26.
    expect(Math.abs(marks / 40_000 - 0.25)).toBeLessThan(0.01);
  });
});
