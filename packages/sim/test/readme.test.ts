import { describe, expect, it } from "vitest";
import { simulate } from "../src/index.js";

describe("README example", () => {
  it("gives four incast senders a quarter of the hot link each", async () => {
    const result = await simulate({
      name: "incast-4",
      topology: { kind: "single-switch", hosts: 5, rateGbps: 100, latencyNs: 1000 },
      traffic: [{ pattern: "hotspot", hotspot: 0, senders: [1, 2, 3, 4] }],
      run: { durationUs: 500, warmupUs: 100 },
    });
    const group = result.summary.groups[0]!;
    expect(group.flows).toBe(4);
    expect(group.meanGbps).toBeCloseTo((100 * (2048 / 2074)) / 4, 0);
    expect(group.jainIndex).toBeGreaterThan(0.999);
  });
});
