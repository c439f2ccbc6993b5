import { describe, expect, it } from "vitest";
import { simulate } from "../src/index.js";

/** Payload share of a full packet on the wire (2048 B + 26 B header). */
const PAYLOAD = 2048 / 2074;

// One slow receiver among fast ones on a single 10 Gb/s switch, as IBM's E2CM slides set up
// an output-generated hot spot: H0 consumes at 10 % of its link (1 Gb/s), halved at 300 µs;
// H1 sends to it, H2 to the fast H3. Each flow always has data.
const scenario = (warmupUs: number, durationUs: number) => ({
  name: "slow-receiver",
  topology: { kind: "single-switch", hosts: 4, rateGbps: 10, latencyNs: 100 },
  host: {
    receiveRates: [
      { hosts: ["H0"], receiveRateGbps: 1 },
      { hosts: ["H0"], receiveRateGbps: 0.5, atUs: 300 },
    ],
  },
  traffic: [
    {
      pattern: "scheduled",
      flows: [
        { src: "H1", dst: "H0", group: "to-slow" },
        { src: "H2", dst: "H3", group: "to-fast" },
      ],
    },
  ],
  run: { durationUs, warmupUs },
  metrics: { series: [] },
});

describe("a slow receiver among fast ones (host.receiveRates)", () => {
  // Within one packet over the window of the rate: a flow's window may cut a packet.
  const within = (gbps: number, expected: number, windowUs: number) =>
    expect(Math.abs(gbps - expected)).toBeLessThanOrEqual((2048 * 8) / (windowUs * 1000));

  it("delivers at its own rate, which halves at 300 µs; the fast receiver is unaffected", async () => {
    const before = await simulate(scenario(50, 300));
    const after = await simulate(scenario(350, 600));
    const gbps = (r: typeof before, group: string) =>
      r.summary.groups.find((g) => g.name === group)!.meanGbps;
    within(gbps(before, "to-slow"), 1 * PAYLOAD, 250);
    within(gbps(after, "to-slow"), 0.5 * PAYLOAD, 250);
    within(gbps(before, "to-fast"), 10 * PAYLOAD, 250);
    within(gbps(after, "to-fast"), 10 * PAYLOAD, 250);
    // The resolved scenario records the hosts by index.
    expect(after.scenario.host.receiveRates).toEqual([
      { hosts: [0], receiveRateGbps: 1, atUs: 0 },
      { hosts: [0], receiveRateGbps: 0.5, atUs: 300 },
    ]);
  });

  it("gives a lone message the slowdown 1, also when a rate change falls inside it", async () => {
    // Ten packets to H0 at a time, each message alone: at 200 µs (1 → 0.5 Gb/s at 300 µs), at
    // 900 µs (0.5 → null at 1000 µs: the queued packets go at once) and at 1090 µs (null → 2
    // Gb/s at 1100 µs).
    const bytes = 10 * 2048;
    const result = await simulate({
      name: "lone-across-changes",
      topology: { kind: "single-switch", hosts: 3, rateGbps: 10, latencyNs: 100 },
      host: {
        receiveBufferBytes: 1 << 20,
        receiveRates: [
          { hosts: ["H0"], receiveRateGbps: 1 },
          { hosts: ["H0"], receiveRateGbps: 0.5, atUs: 300 },
          { hosts: ["H0"], receiveRateGbps: null, atUs: 1000 },
          { hosts: ["H0"], receiveRateGbps: 2, atUs: 1100 },
        ],
      },
      switch: { buffer: { model: "partitioned", bytesPerPortVl: 1 << 20 } },
      traffic: [
        {
          pattern: "scheduled",
          flows: [200, 900, 1090].map((startUs) => ({
            src: "H1",
            dst: "H0",
            startNs: startUs * 1000,
            totalBytes: bytes,
            messageBytes: bytes,
          })),
        },
      ],
      run: { untilComplete: true },
      metrics: { series: [] },
    });
    expect(result.summary.status).toBe("complete");
    const slowdown = result.summary.fct!.slowdown;
    expect(slowdown.count).toBe(3);
    expect(slowdown.max).toBeCloseTo(1, 9);
    expect(slowdown.mean).toBeCloseTo(1, 9);
  });
});
