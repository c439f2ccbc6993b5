import { usToPs } from "@cclab/core-des";
import { IdealFct, Network } from "@cclab/network";
import { singleSwitch } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { Collector } from "../src/collector.js";

// The same run measured with the sample store and with a store too small for it: the
// fallback to per-flow histograms keeps every sample and agrees within their 0.5 %. Each flow
// has over 1024 packets, so its histogram is past its own exact samples and answers from its
// buckets.
const MESSAGE_BYTES = 3_000_000; // 1465 packets of 2048 B

function latencies(limit: number) {
  const net = new Network(singleSwitch({ hosts: 4, rateGbps: 10, latencyNs: 100 }));
  const collector = new Collector(net, {
    warmupPs: 0,
    binPs: usToPs(10),
    maxFlowSeries: 0,
    hostSeries: false,
    ideal: IdealFct.of(net),
    maxMessageRecords: 0,
    perFlowStats: true,
    latencySampleLimit: limit,
  });
  for (const [src, dst] of [
    [1, 0],
    [2, 0],
    [3, 1],
  ] as const) {
    collector.offered(src, dst, 0, MESSAGE_BYTES, "g");
    net.addMessage(src, { dstHost: dst, bytes: MESSAGE_BYTES, startPs: 0 });
  }
  net.run(usToPs(6000));
  return collector.flowLatencies(1e-3);
}

describe("per-flow packet latencies", () => {
  it("fall back to histograms past the sample limit without losing samples", () => {
    const exact = latencies(1 << 20);
    const fallback = latencies(50);
    expect(fallback.map((p) => p?.count)).toEqual(exact.map((p) => p?.count));
    for (const p of exact) expect(p!.count).toBeGreaterThan(1024);
    exact.forEach((p, i) => {
      const q = fallback[i]!;
      expect(q.max).toBeCloseTo(p!.max, 6);
      for (const k of ["p50", "p99"] as const) {
        expect(Math.abs(q[k] - p![k])).toBeLessThanOrEqual(0.005 * p![k] + 1e-6);
      }
    });
  });
});
