/**
 * Gran thesis (seed 001), Papers II/III: the two-switch parking lot without CC (L1037–1127,
 * L1303–1354). H1–H3 on S1, H4–H7 on S2, the S1–S2 link twice the host links (16 Gb/s data,
 * line 848 via 1291–1295), hosts capped at 13 Gb/s by PCIe (L1336) for sending and, as the
 * testbed's receivers were "just above 13Gbps" (L902), for receiving. F1 H1→H4 (victim),
 * F2 H2→H5, F3 H3→H5, F4 H6→H5, F5 H7→H5, one flow added per interval; 64 KiB messages,
 * MTU 2048 (L1356). Paper III measured (L1336–1354): F1 13 → just under 7 → ≈ 3.5 → ≈ 2 as
 * contributors join; at the end F4, F5 ≈ 1/3 and F2, F3 ≈ 1/6 of the H5 link.
 *
 * The thesis gives no buffer sizes (see the package README): 32 KiB per port and VL here.
 * Intervals are 1 ms instead of 1 s: each stage settles within tens of microseconds.
 */
import { msToPs } from "@cclab/core-des";
import { twoSwitchTestbed } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { FlowMeter, Network } from "../../src/index.js";

/**
 * A share within ±4 % of its theoretical value: round-robin shares are exact in theory, and
 * ±4 % tells 1/6 from 1/5 and 1/7 (a tolerance of ±0.05 would take all three).
 */
function expectShare(actual: number, share: number): void {
  expect(Math.abs(actual - share) / share).toBeLessThanOrEqual(0.04);
}

describe("Gran two-switch parking lot, no CC", () => {
  const topology = twoSwitchTestbed();
  const h = topology.hostIndex;
  const net = new Network(topology, {
    // Two read ports: S2's input from S1 receives at 32 Gb/s and must feed the 16 Gb/s links
    // to H4 and H5 at once, as the testbed did (F1 and F2 both at 13 Gb/s, L1336). With one
    // read port this input could not pass more than 16 Gb/s (measured: F1 = F2 = 7.9 Gb/s).
    switch: { queueing: "voq-port", readPorts: 2 },
    host: { injectionCapGbps: 13, receiveRateGbps: 13 },
  });
  const stageMs = 1;
  const flows = [
    ["H1", "H4"],
    ["H2", "H5"],
    ["H3", "H5"],
    ["H6", "H5"],
    ["H7", "H5"],
  ] as const;
  const ids = flows.map(([src, dst], stage) => {
    const startPs = msToPs(stage * stageMs);
    for (let m = 0; m < 140; m++)
      net.addMessage(h[src], { dstHost: h[dst], bytes: 65_536, startPs });
    return h[src] * 7 + h[dst];
  });
  const meter = new FlowMeter(net, msToPs(0.05));
  net.run(msToPs(flows.length * stageMs));
  // Mean over the second half of each stage.
  const rates = flows.map((_, stage) =>
    ids.map((id) =>
      meter.meanGbps(id, msToPs((stage + 0.5) * stageMs), msToPs((stage + 1) * stageMs)),
    ),
  );
  const payload = 2048 / (2048 + 26);

  it("runs F1 alone and with F2 at the host cap", () => {
    expect(rates[0]![0]).toBeCloseTo(13 * payload, 0);
    expect(rates[1]![0]).toBeCloseTo(13 * payload, 0);
    expect(rates[1]![1]).toBeCloseTo(13 * payload, 0);
  });

  it("makes F1 a victim that falls as contributors join: ≈ 1/2, 1/4, 1/6 of the H5 link", () => {
    const h5 = 13 * payload;
    const [, , withF3, withF4, withF5] = rates.map((r) => r[0]!);
    expectShare(withF3! / h5, 1 / 2);
    expectShare(withF4! / h5, 1 / 4);
    expectShare(withF5! / h5, 1 / 6);
  });

  it("ends with F4, F5 ≈ 1/3 and F2, F3 ≈ 1/6 of the H5 link, F1 no faster than F2", () => {
    const last = rates[4]!;
    const h5 = last[1]! + last[2]! + last[3]! + last[4]!;
    expect(h5).toBeGreaterThan(0.97 * 13 * payload);
    expectShare(last[3]! / h5, 1 / 3);
    expectShare(last[4]! / h5, 1 / 3);
    expectShare(last[1]! / h5, 1 / 6);
    expectShare(last[2]! / h5, 1 / 6);
    expect(last[0]!).toBeLessThanOrEqual(last[1]! * 1.05);
  });
});
