import { msToPs, serializationPs, usToPs } from "@cclab/core-des";
import { singleSwitch } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { FlowMeter } from "./flow-meter.js";
import { bufferOverflowViolation, creditConservationViolation } from "./invariants.js";
import { Network } from "./network.js";

describe("Network on one switch", () => {
  it("delivers a lone message with the latency docs/model.md gives", () => {
    const net = new Network(singleSwitch({ hosts: 2, rateGbps: 10, latencyNs: 10 }), {
      switch: { routingLatencyNs: 100 },
      host: { headerBytes: 0 },
    });
    net.addMessage(0, { dstHost: 1, bytes: 1000, startPs: 0 });
    net.run();
    const [done] = net.hosts[1]!.completions;
    // Host link: ser(1000 B @ 10) + 10 ns; switch: VCT after 64 B header + 100 ns routing; out:
    // the tail cannot leave before it arrives, so end = max(start + ser, tail) and + 10 ns.
    const ser = serializationPs(1000, 10);
    const header = serializationPs(64, 10);
    const start = 10_000 + header + 100_000;
    const tailIn = ser + 10_000;
    const expected = Math.max(start + ser, tailIn) + 10_000;
    expect(done?.completedPs).toBe(expected);
    expect(done?.bytes).toBe(1000);
    const latency = net.hosts[1]!.networkLatencyPs.summary();
    expect(latency.count).toBe(1);
    expect(latency.max).toBe(expected);
  });

  it("shares an output round-robin between two inputs, keeps credits, fills the link", () => {
    const net = new Network(singleSwitch({ hosts: 3, rateGbps: 10, latencyNs: 10 }));
    const meter = new FlowMeter(net, usToPs(10));
    for (const src of [0, 1]) net.addMessage(src, { dstHost: 2, bytes: 10_000_000, startPs: 0 });
    let violation: string | undefined;
    net.run(msToPs(1), () => {
      violation ??= creditConservationViolation(net);
      return false;
    });
    expect(violation).toBeUndefined();
    expect(bufferOverflowViolation(net)).toBeUndefined();
    const flows = meter.flowIds();
    expect(flows).toHaveLength(2);
    const from = usToPs(100);
    const to = msToPs(1);
    const rates = flows.map((f) => meter.meanGbps(f, from, to));
    // Payload share of a 2074-byte packet (2048 + 26 header) on a 10 Gb/s link.
    const payloadRate = (10 * 2048) / 2074;
    for (const rate of rates) expect(rate).toBeCloseTo(payloadRate / 2, 1);
  });

  it("counts blocked time, OFF transitions and occupancy at a port feeding a slow receiver", () => {
    const net = new Network(singleSwitch({ hosts: 3, rateGbps: 10, latencyNs: 10 }), {
      switch: { occupancyBinNs: 100_000 },
      host: { receiveRateGbps: 5 },
    });
    for (const src of [0, 1]) net.addMessage(src, { dstHost: 2, bytes: 2_000_000, startPs: 0 });
    net.run(msToPs(1));
    const [in0, , out2] = net.switches[0]!.portStats(net.nowPs);
    // The receiver drains 5 Gb/s of a 10 Gb/s link: port 2 waits for credits part of the time.
    expect(out2!.blockedPs[0]).toBeGreaterThan(0.3 * net.nowPs);
    expect(out2!.offTransitions[0]).toBeGreaterThan(10);
    // Each input holds packets for the congested output almost all the time.
    expect(in0!.meanInputBytes[0]).toBeGreaterThan(0.8 * 32 * 1024 - 2074);
    expect(in0!.maxInputBytes[0]).toBeLessThanOrEqual(32 * 1024);
    expect(in0!.inputBytesSeries?.[0]).toHaveLength(10);
    expect(out2!.bytesForwarded * 8000).toBeLessThanOrEqual(5 * net.nowPs + 2074 * 8000 * 16);
  });

  it.each([
    [[], undefined, 0.5, 0.5],
    [[], [3, 1], 0.75, 0.25],
    [[1], undefined, 0, 1],
  ])(
    "serves control VLs %j with strict priority and data VLs by weights %j",
    (controlVls, vlWeights, share0, share1) => {
      const net = new Network(singleSwitch({ hosts: 3, rateGbps: 10, latencyNs: 10 }), {
        switch: { vlCount: 2, controlVls, ...(vlWeights === undefined ? {} : { vlWeights }) },
      });
      const meter = new FlowMeter(net, usToPs(10));
      net.addMessage(0, { dstHost: 2, bytes: 5_000_000, startPs: 0, sl: 0 });
      net.addMessage(1, { dstHost: 2, bytes: 5_000_000, startPs: 0, sl: 1 });
      net.run(msToPs(1));
      const vl0 = meter.meanGbps((0 * 3 + 2) * 2 + 0, usToPs(100), msToPs(1));
      const vl1 = meter.meanGbps((1 * 3 + 2) * 2 + 1, usToPs(100), msToPs(1));
      const total = vl0 + vl1;
      expect(total).toBeGreaterThan(0.98 * 10 * (2048 / 2074));
      expect(vl0 / total).toBeCloseTo(share0, 2);
      expect(vl1 / total).toBeCloseTo(share1, 2);
    },
  );
});
