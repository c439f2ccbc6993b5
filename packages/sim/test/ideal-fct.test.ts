import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { simulate } from "../src/index.js";

/**
 * The slowdown's denominator must be exactly what the model gives a message alone on an idle
 * fabric (docs/model.md, "What is measured"): a lone message's slowdown is 1 on any topology,
 * rate, latency, switching mode, MTU and host limit. Buffers are large, so credits never hold a
 * lone flow back.
 */
const topologies = fc.oneof(
  fc.record({ kind: fc.constant("single-switch"), hosts: fc.integer({ min: 2, max: 6 }) }),
  fc.record({
    kind: fc.constant("parking-lot"),
    switches: fc.integer({ min: 2, max: 4 }),
    hostsPerSwitch: fc.integer({ min: 1, max: 3 }),
    interSwitchRateGbps: fc.constantFrom(10, 25, 40, 100),
  }),
  fc.record({
    kind: fc.constant("two-level-fat-tree"),
    leaves: fc.integer({ min: 2, max: 3 }),
    spines: fc.integer({ min: 1, max: 2 }),
    hostsPerLeaf: fc.integer({ min: 1, max: 3 }),
  }),
);

describe("ideal message completion time", () => {
  test.prop(
    [
      topologies,
      fc.constantFrom(10, 16, 40, 100),
      fc.integer({ min: 0, max: 1000 }),
      fc.constantFrom("vct", "saf"),
      fc.integer({ min: 1, max: 40_000 }),
      fc.constantFrom(256, 1000, 2048),
      fc.option(fc.constantFrom(5, 13), { nil: null }),
      fc.option(fc.constantFrom(7, 20), { nil: null }),
      fc.nat(),
    ],
    { numRuns: 40 },
  )(
    "gives a lone message a slowdown of exactly 1",
    async (topo, rateGbps, latencyNs, switching, bytes, mtuBytes, cap, receive, pick) => {
      const topology = { ...topo, rateGbps, latencyNs };
      const hosts = hostCountOf(topo);
      const src = pick % hosts;
      const dst = (src + 1 + (Math.floor(pick / hosts) % (hosts - 1))) % hosts;
      const result = await simulate({
        name: "lone-message",
        topology,
        switch: {
          switching,
          buffer: { model: "partitioned", bytesPerPortVl: 1 << 20 },
        },
        host: {
          mtuBytes,
          injectionCapGbps: cap,
          receiveRateGbps: receive,
          receiveBufferBytes: 1 << 20,
        },
        traffic: [
          {
            pattern: "scheduled",
            flows: [{ src, dst, startNs: 0, totalBytes: bytes, messageBytes: bytes }],
          },
        ],
        run: { untilComplete: true },
        metrics: { series: [] },
      });
      expect(result.summary.status).toBe("complete");
      expect(result.summary.fct!.slowdown.max).toBeCloseTo(1, 6);
      expect(result.summary.fct!.slowdown.p50).toBeCloseTo(1, 6);
    },
  );
});

describe("ideal message completion time per message size", () => {
  // The collector reuses a flow's last ideal time while message sizes repeat: a size that
  // changes must get its own, or these lone messages' slowdowns would drift from 1.
  test("gives every lone message of a flow whose sizes change a slowdown of exactly 1", async () => {
    const sizes = [1000, 1000, 20_000, 5000, 5000, 1000];
    const result = await simulate({
      name: "lone-messages-of-changing-size",
      topology: {
        kind: "parking-lot",
        switches: 3,
        hostsPerSwitch: 1,
        rateGbps: 10,
        latencyNs: 100,
      },
      switch: { buffer: { model: "partitioned", bytesPerPortVl: 1 << 20 } },
      host: { mtuBytes: 2048, receiveBufferBytes: 1 << 20 },
      traffic: [
        {
          pattern: "scheduled",
          flows: sizes.map((bytes, i) => ({
            src: 0,
            dst: 2,
            startNs: i * 100_000,
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
    expect(slowdown.count).toBe(sizes.length);
    expect(slowdown.mean).toBeCloseTo(1, 6);
    expect(slowdown.max).toBeCloseTo(1, 6);
  });
});

function hostCountOf(t: Record<string, unknown>): number {
  if (t.kind === "single-switch") return t.hosts as number;
  if (t.kind === "parking-lot") return (t.switches as number) * (t.hostsPerSwitch as number);
  return (t.leaves as number) * (t.hostsPerLeaf as number);
}
