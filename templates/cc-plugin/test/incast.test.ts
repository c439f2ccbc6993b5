import { creditConservationViolation, Network } from "@cclab/network";
import { singleSwitch } from "@cclab/topologies";
import { expect, it } from "vitest";
import { plugin, SCHEME } from "../src/index.js";

// Two hosts send to a third through one switch: the switch's inputs fill, packets are marked,
// echoes come back and the sources slow down, and every byte still arrives (lossless fabric).
it("marks, echoes and cuts rates in a 2-to-1 incast, and delivers everything", () => {
  const scheme = plugin.create(plugin.params.parse({}));
  const net = new Network(singleSwitch({ hosts: 3, rateGbps: 10, latencyNs: 100 }), {
    cc: scheme,
  });
  const messageBytes = 64 * 1024;
  for (const src of [0, 1]) {
    for (let i = 0; i < 20; i++) {
      net.addMessage(src, { dstHost: 2, bytes: messageBytes, startPs: 0 });
    }
  }
  let violation: string | undefined;
  net.run(undefined, () => {
    violation ??= creditConservationViolation(net);
    return false;
  });

  expect(violation).toBeUndefined();
  const delivered = net.hosts[2]!.completions.reduce((sum, c) => sum + c.bytes, 0);
  expect(delivered).toBe(2 * 20 * messageBytes);
  const counters = net.ccCounters();
  expect(counters[`${SCHEME}.packetsMarked`]).toBeGreaterThan(0);
  expect(counters[`${SCHEME}.echoesSent`]).toBe(counters[`${SCHEME}.packetsMarked`]);
  expect(counters[`${SCHEME}.echoesReceived`]).toBe(counters[`${SCHEME}.echoesSent`]);
  expect(counters[`${SCHEME}.rateCuts`]).toBeGreaterThan(0);
  expect(counters[`${SCHEME}.rateIncreases`]).toBeGreaterThan(0);
});
