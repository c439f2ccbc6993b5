/**
 * SRP on the paper's 256-node fat tree (seed 000_23e1115f082a0339.txt, lines 92–98) at 80 %
 * uniform load with TTW 2.6 µs, for 150 µs: many drops, and NACKs sent by switches in the middle
 * of arbitration. A NACK once made the switch arbitrate again over the head being dropped, which
 * dropped it twice (fixed in fabric-switch, `Switch.queueControl`); every message must still be
 * delivered exactly once, and every drop resent once.
 */
import { Network } from "@cclab/network";
import { twoLevelFatTree } from "@cclab/topologies";
import { expect, it } from "vitest";
import { params, srpCc } from "../src/index.js";

it("delivers exactly once on the 256-node fat tree under drops", () => {
  const net = new Network(
    twoLevelFatTree({
      leaves: 16,
      spines: 16,
      hostsPerLeaf: 16,
      routing: "nca-random",
      rateGbps: 10,
      latencyNs: 32,
    }),
    {
      seed: 3,
      switch: {
        routingLatencyNs: 26,
        headerBytes: 8,
        buffer: { model: "partitioned", bytesPerPortVl: 4096 },
        outputBufferBytes: 1024,
        speedup: 2,
      },
      host: { mtuBytes: 256, headerBytes: 0, controlPacketBytes: 8, receiveBufferBytes: 4096 },
      cc: srpCc(params.parse({ ttwUs: 2.6 })),
    },
  );
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  let messages = 0;
  for (let src = 0; src < 256; src++) {
    // Poisson arrivals of 1024-byte messages at 8 Gb/s: a mean gap of 1.024 µs.
    let t = 0;
    for (;;) {
      t += -Math.log(1 - random()) * 1_024_000;
      if (t > 150_000_000) break;
      let dst = Math.floor(random() * 256);
      if (dst === src) dst = (dst + 1) % 256;
      net.addMessage(src, { dstHost: dst, bytes: 1024, startPs: Math.floor(t) });
      messages++;
    }
  }
  const packets = net.packets;
  const deliveries = new Map<string, number>();
  net.onDelivery((p) => {
    if (packets.kindCode[p] !== 0) return;
    const key = `${packets.messageId[p]}/${packets.seqInMessage[p]}`;
    deliveries.set(key, (deliveries.get(key) ?? 0) + 1);
  });
  net.run();
  const dropped = net.switches.reduce((s, sw) => s + sw.droppedPackets, 0);
  expect(dropped).toBeGreaterThan(100);
  expect(net.hosts.reduce((s, h) => s + h.packetsResent, 0)).toBe(dropped);
  expect(net.hosts.reduce((s, h) => s + h.completions.length, 0)).toBe(messages);
  expect(deliveries.size).toBe(messages * 4);
  expect([...deliveries.values()].every((n) => n === 1)).toBe(true);
});
