/**
 * SRP on whole credit fabrics: random small topologies, random traffic with a hot spot, random
 * parameters (time-to-wait short enough that switches drop). SRP is the one scheme that drops
 * packets on purpose, so this is where the fabric's exactly-once promise is tested with drops:
 * every message is delivered once and whole; no data packet is lost except the declared
 * speculative drops, each answered by a NACK and one resend (or, in the in-order variant, by
 * the copy sent at t_s, whose duplicates the destinations discard); credits are conserved, no
 * buffer overflows throughout, and no packet is left allocated.
 */
import type { Topology } from "@cclab/fabric";
import { bufferOverflowViolation, creditConservationViolation, Network } from "@cclab/network";
import { singleSwitch, twoLevelFatTree } from "@cclab/topologies";
import { fc, test } from "@fast-check/vitest";
import { afterAll, describe, expect } from "vitest";
import { params, srpCc } from "../src/index.js";

const topologyArb: fc.Arbitrary<Topology> = fc.oneof(
  fc
    .integer({ min: 3, max: 8 })
    .map((hosts) => singleSwitch({ hosts, rateGbps: 10, latencyNs: 32 })),
  fc
    .tuple(
      fc.integer({ min: 2, max: 3 }),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 2, max: 4 }),
    )
    .map(([leaves, spines, hostsPerLeaf]) =>
      twoLevelFatTree({
        leaves,
        spines,
        hostsPerLeaf,
        routing: "nca-random",
        rateGbps: 10,
        latencyNs: 32,
      }),
    ),
);

const caseArb = fc
  .record({
    topology: topologyArb,
    seed: fc.integer({ min: 1, max: 1_000_000 }),
    hotspot: fc.nat(),
    srp: fc.record({
      ttwUs: fc.constantFrom(0.05, 0.2, 0.6, 1.3),
      nMaxPackets: fc.integer({ min: 2, max: 16 }),
      nMinPackets: fc.integer({ min: 1, max: 4 }),
      epsilon: fc.constantFrom(0, 0.05, 0.5),
      inOrder: fc.boolean(),
      dropCheck: fc.constantFrom("at-head" as const, "until-room" as const),
    }),
    outputs: fc.constantFrom(
      { outputBufferBytes: 0, speedup: 1 },
      { outputBufferBytes: 1024, speedup: 2 },
    ),
    raw: fc.array(
      fc.record({
        src: fc.nat(),
        dst: fc.nat(),
        toHotspot: fc.boolean(),
        packets: fc.integer({ min: 1, max: 40 }),
        startNs: fc.integer({ min: 0, max: 5000 }),
      }),
      { minLength: 3, maxLength: 24 },
    ),
  })
  .map((r) => {
    const hosts = r.topology.fabric.hosts.length;
    const hot = r.hotspot % hosts;
    const messages = r.raw.map((m) => {
      const src = m.src % hosts;
      let dst = m.toHotspot ? hot : m.dst % hosts;
      if (dst === src) dst = (src + 1) % hosts;
      return { src, dst, bytes: m.packets * 256 - (m.packets % 3) * 40, startNs: m.startNs };
    });
    const srp = params.parse({
      ...r.srp,
      nMinPackets: Math.min(r.srp.nMinPackets, r.srp.nMaxPackets),
    });
    return { ...r, messages, srp };
  });

describe("SRP on random credit fabrics", () => {
  // The runs must exercise drops, or the property says nothing about them.
  let runsWithDrops = 0;
  let runsWithCopies = 0;
  let untilRoomRunsWithDrops = 0;
  afterAll(() => {
    expect(runsWithDrops).toBeGreaterThan(5);
    expect(untilRoomRunsWithDrops).toBeGreaterThan(2);
    expect(runsWithCopies).toBeGreaterThan(3);
  });

  test.prop([caseArb], { numRuns: 40 })(
    "delivers every message exactly once; every loss is a declared drop, NACKed and resent once; credits conserved",
    (c) => {
      const net = new Network(c.topology, {
        seed: c.seed,
        switch: {
          routingLatencyNs: 26,
          headerBytes: 8,
          buffer: { model: "partitioned", bytesPerPortVl: 4096 },
          ...c.outputs,
        },
        host: { mtuBytes: 256, headerBytes: 0, controlPacketBytes: 8, receiveBufferBytes: 4096 },
        cc: srpCc(c.srp),
      });
      const expected = new Map<number, number>();
      for (const m of c.messages) {
        const id = net.addMessage(m.src, {
          dstHost: m.dst,
          bytes: m.bytes,
          startPs: m.startNs * 1000,
        });
        expected.set(id, m.bytes);
      }
      const packets = net.packets;
      const deliveries = new Map<string, number>();
      net.onDelivery((p) => {
        if (packets.kindCode[p] !== 0) return;
        const key = `${packets.messageId[p]}/${packets.seqInMessage[p]}`;
        deliveries.set(key, (deliveries.get(key) ?? 0) + 1);
      });
      let violation: string | undefined;
      net.run(undefined, () => {
        if (net.scheduler.processed % 13 === 0) {
          violation ??= creditConservationViolation(net) ?? bufferOverflowViolation(net);
        }
        return violation !== undefined;
      });
      violation ??= creditConservationViolation(net) ?? bufferOverflowViolation(net);
      expect(violation).toBeUndefined();

      // Every message whole and once, every packet once.
      const completions = net.hosts.flatMap((h) => h.completions);
      expect(completions.map((x) => x.messageId).sort((a, b) => a - b)).toEqual(
        [...expected.keys()].sort((a, b) => a - b),
      );
      for (const done of completions) expect(done.bytes).toBe(expected.get(done.messageId));
      const packetCount = c.messages.reduce((s, m) => s + Math.ceil(m.bytes / 256), 0);
      expect(deliveries.size).toBe(packetCount);
      expect([...deliveries.values()].every((n) => n === 1)).toBe(true);

      // Drops are the scheme's, each NACKed, and resent once unless (in-order variant) the copy
      // sent at t_s covers it; every copy of a delivered packet is discarded at the destination.
      const counters = net.ccCounters();
      const dropped = net.switches.reduce((s, sw) => s + sw.droppedPackets, 0);
      if (dropped > 0) runsWithDrops++;
      if (dropped > 0 && c.srp.dropCheck === "until-room") untilRoomRunsWithDrops++;
      const copies = counters.copiesSent ?? 0;
      const covered = counters.nacksCoveredByCopy ?? 0;
      const discarded = net.hosts.reduce((s, h) => s + h.duplicatesDiscarded, 0);
      if (c.srp.inOrder && copies > 0) runsWithCopies++;
      if (!c.srp.inOrder) expect(copies + covered + discarded).toBe(0);
      expect(counters.speculativeDropped ?? 0).toBe(dropped);
      expect(counters.nacksReceived ?? 0).toBe(dropped);
      expect((counters.retransmitted ?? 0) + covered).toBe(dropped);
      expect(net.hosts.reduce((s, h) => s + h.packetsResent, 0)).toBe(
        (counters.retransmitted ?? 0) + copies,
      );
      expect(counters.duplicatesDiscarded ?? 0).toBe(discarded);
      expect(discarded).toBe(copies - covered);
      // Every speculative packet is either ACKed or NACKed.
      expect((counters.acksReceived ?? 0) + dropped).toBe(counters.speculativeSent ?? 0);
      expect(counters.grantsReceived ?? 0).toBe(counters.reservationsSent ?? 0);
      // Nothing is left allocated: every copy and every dropped packet was sent or freed.
      expect(packets.live).toBe(0);
    },
  );
});
