/**
 * SRP paper (seed 000), Fig. 1, without congestion control: S1..S5 send to D1 at line rate,
 * S0 to D0 sharing L0 with S1 and S2 (line 38). The paper: "the hot-spot link L2 is at 100%
 * utilization", S0 cannot use the spare bandwidth of L0 and L1 "due to congested packets from
 * S1 and S2 ... in the input and output buffers of L0", and S1, S2 get "only half" of what
 * S3..S5 get because routers are fair per input port.
 *
 * Network (lines 92–98): 10 Gb/s channels, 32 ns latency, 26 ns router latency, 2 Kbit
 * (256 B) packets, 16-packet input buffer per VC, VOQ, crossbar speedup 2, 4-packet output
 * buffers, virtual cut-through. The paper's routers use flit-level "priority arbiters"; here
 * arbitration is packet-level round-robin (docs/model.md, "Arbitration").
 */
import { msToPs, usToPs } from "@cclab/core-des";
import { srpCongestionNetwork } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { FlowMeter, Network } from "../../src/index.js";

describe("SRP Fig. 1, no CC", () => {
  const topology = srpCongestionNetwork();
  const h = topology.hostIndex;
  const net = new Network(topology, {
    switch: {
      routingLatencyNs: 26,
      headerBytes: 8, // one 64-bit flit
      queueing: "voq-port",
      buffer: { model: "partitioned", bytesPerPortVl: 16 * 256 },
      outputBufferBytes: 4 * 256,
      speedup: 2,
    },
    host: { mtuBytes: 256, headerBytes: 0, receiveBufferBytes: 16 * 256 },
  });
  const meter = new FlowMeter(net, usToPs(10));
  const flows = new Map<string, number>();
  for (const src of ["S0", "S1", "S2", "S3", "S4", "S5"] as const) {
    const dst = src === "S0" ? h.D0 : h.D1;
    net.addMessage(h[src], { dstHost: dst, bytes: 10_000_000, startPs: 0 });
    flows.set(src, h[src] * topology.fabric.hosts.length + dst);
  }
  const endPs = msToPs(2);
  net.run(endPs);
  const from = msToPs(0.5);
  const rate = (src: string) => meter.meanGbps(flows.get(src)!, from, endPs);

  it("keeps L2 (to D1) fully used", () => {
    const toD1 = ["S1", "S2", "S3", "S4", "S5"].reduce((sum, s) => sum + rate(s), 0);
    expect(toD1).toBeGreaterThan(0.98 * 10);
  });

  it("gives S1 and S2 half the throughput of S3..S5 (per-input-port fairness)", () => {
    const far = (rate("S3") + rate("S4") + rate("S5")) / 3;
    expect(far).toBeCloseTo(2.5, 1);
    // Half, within ±4 % (a third or two thirds of it would be far outside).
    for (const s of ["S1", "S2"]) expect(Math.abs(rate(s) / far / 0.5 - 1)).toBeLessThan(0.04);
  });

  it("holds S0 far below the bandwidth left free on its path", () => {
    // L0 carries S1 + S2 (2.5 Gb/s together), so 7.5 Gb/s of L0 and all of L1 are free for S0.
    const free = 10 - rate("S1") - rate("S2");
    expect(free).toBeGreaterThan(7);
    expect(rate("S0")).toBeLessThan(0.25 * free);
    expect(rate("S0")).toBeGreaterThan(0);
  });
});
