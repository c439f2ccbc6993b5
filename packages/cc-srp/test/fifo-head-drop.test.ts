/**
 * A regression case fast-check found (in-order variant, single switch of 3 hosts, TTW 50 ns):
 * in the FIFO of SRP's lanes at a switch input, a speculative head for one output is dropped
 * and the packets behind it are for another output, which is idle. Nothing else was left to
 * happen on that output, so they stayed queued for good (6 packets never dropped nor NACKed).
 * The switch now lets the input offer its new heads after a drop.
 */
import { Network } from "@cclab/network";
import { singleSwitch } from "@cclab/topologies";
import { expect, it } from "vitest";
import { params, srpCc } from "../src/index.js";

it("a FIFO head dropped for one output lets the heads behind it go to another", () => {
  const net = new Network(singleSwitch({ hosts: 3, rateGbps: 10, latencyNs: 32 }), {
    seed: 1,
    switch: {
      routingLatencyNs: 26,
      headerBytes: 8,
      buffer: { model: "partitioned", bytesPerPortVl: 4096 },
    },
    host: { mtuBytes: 256, headerBytes: 0, controlPacketBytes: 8, receiveBufferBytes: 4096 },
    cc: srpCc(
      params.parse({ epsilon: 0, ttwUs: 0.05, nMaxPackets: 2, nMinPackets: 1, inOrder: true }),
    ),
  });
  const messages = [
    { src: 1, dst: 2, bytes: 4272, startNs: 1614 },
    { src: 0, dst: 2, bytes: 3288, startNs: 0 },
    { src: 0, dst: 1, bytes: 768, startNs: 833 },
    { src: 1, dst: 2, bytes: 216, startNs: 0 },
    { src: 2, dst: 0, bytes: 768, startNs: 3117 },
    { src: 0, dst: 2, bytes: 432, startNs: 0 },
  ];
  for (const m of messages) {
    net.addMessage(m.src, { dstHost: m.dst, bytes: m.bytes, startPs: m.startNs * 1000 });
  }
  net.run(undefined);
  const counters = net.ccCounters();
  const dropped = net.switches.reduce((s, sw) => s + sw.droppedPackets, 0);
  expect(net.hosts.reduce((s, h) => s + h.completions.length, 0)).toBe(messages.length);
  // Every speculative packet is ACKed or dropped and NACKed; none is left in the switch.
  expect((counters.acksReceived ?? 0) + dropped).toBe(counters.speculativeSent);
  expect(counters.nacksReceived).toBe(dropped);
  expect(net.packets.live).toBe(0);
});
