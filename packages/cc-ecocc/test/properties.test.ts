/**
 * EcoCC, HFDI, CCFIT and FBICM on whole credit fabrics: random k-ary n-trees and single switches, random
 * traffic with hot spots, random parameters (small buffers and low thresholds so that trees form,
 * hot queues run out and stops are sent). The isolation only reorders packets inside one input
 * buffer, so the fabric stays lossless and credits are conserved; and once the traffic is over
 * every hot queue, every CAM line (input, output and host) is released, and no host flow or
 * queue is left stopped with no go to come.
 */
import type { Topology } from "@cclab/fabric";
import { bufferOverflowViolation, creditConservationViolation, Network } from "@cclab/network";
import { karyNTree, singleSwitch } from "@cclab/topologies";
import { fc, test } from "@fast-check/vitest";
import { afterAll, describe, expect } from "vitest";
import { ecoccCc, params } from "../src/index.js";

const topologyArb: fc.Arbitrary<Topology> = fc.oneof(
  fc
    .integer({ min: 3, max: 8 })
    .map((hosts) => singleSwitch({ hosts, rateGbps: 40, latencyNs: 6 })),
  fc
    .tuple(fc.integer({ min: 2, max: 3 }), fc.integer({ min: 2, max: 3 }))
    .map(([k, n]) => karyNTree({ k, n, rateGbps: 40, latencyNs: 6 })),
);

const caseArb = fc
  .record({
    topology: topologyArb,
    seed: fc.integer({ min: 1, max: 1_000_000 }),
    hotspots: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
    scheme: fc.record({
      variant: fc.constantFrom("ecocc", "hfdi", "ccfit", "fbicm"),
      hthPackets: fc.integer({ min: 1, max: 4 }),
      lthPackets: fc.integer({ min: 0, max: 3 }),
      hotQueues: fc.integer({ min: 0, max: 3 }),
      dListCap: fc.integer({ min: 1, max: 8 }),
      outputCamLines: fc.integer({ min: 1, max: 9 }),
      localRootHpq: fc.boolean(),
      joinDownstreamLines: fc.boolean(),
      rootLineStopGo: fc.boolean(),
      ccfit: fc.record({
        detectPackets: fc.integer({ min: 1, max: 8 }),
        highPackets: fc.integer({ min: 1, max: 6 }),
        lowPackets: fc.integer({ min: 0, max: 5 }),
        stopPackets: fc.integer({ min: 1, max: 10 }),
        goPackets: fc.integer({ min: 0, max: 9 }),
      }),
    }),
    readPorts: fc.constantFrom(1, 16),
    bufferPackets: fc.integer({ min: 4, max: 16 }),
    raw: fc.array(
      fc.record({
        src: fc.nat(),
        dst: fc.nat(),
        hot: fc.nat(),
        toHotspot: fc.boolean(),
        packets: fc.integer({ min: 1, max: 30 }),
        startNs: fc.integer({ min: 0, max: 3000 }),
      }),
      { minLength: 4, maxLength: 30 },
    ),
  })
  .map((r) => {
    const hosts = r.topology.fabric.hosts.length;
    const messages = r.raw.map((m) => {
      const src = m.src % hosts;
      let dst = m.toHotspot ? r.hotspots[m.hot % r.hotspots.length]! % hosts : m.dst % hosts;
      if (dst === src) dst = (src + 1) % hosts;
      return { src, dst, bytes: m.packets * 512, startNs: m.startNs };
    });
    const s = r.scheme;
    const c = s.ccfit;
    const scheme = params.parse({
      ...s,
      lthPackets: Math.min(s.lthPackets, s.hthPackets - 1),
      ccfit:
        s.variant === "ccfit" || s.variant === "fbicm"
          ? {
              ...c,
              lowPackets: Math.min(c.lowPackets, c.highPackets - 1),
              goPackets: Math.min(c.goPackets, c.stopPackets - 1),
            }
          : undefined,
    });
    return { ...r, messages, scheme };
  });

describe("EcoCC, HFDI, CCFIT and FBICM on random credit fabrics", () => {
  // The runs must exercise the rules, or the property says little about them.
  const seen = { stops: 0, misses: 0, hotQueues: 0, marks: 0 };
  afterAll(() => {
    expect(seen.hotQueues).toBeGreaterThan(10);
    expect(seen.stops).toBeGreaterThan(5);
    expect(seen.misses).toBeGreaterThan(3);
    expect(seen.marks).toBeGreaterThan(3);
  });

  test.prop([caseArb], { numRuns: 120 })(
    "lossless, credits conserved, every message delivered once; afterwards no hot queue, CAM line or stop is left",
    (c) => {
      const net = new Network(c.topology, {
        seed: c.seed,
        switch: {
          readPorts: c.readPorts,
          buffer: { model: "partitioned", bytesPerPortVl: c.bufferPackets * 600 },
        },
        host: { mtuBytes: 512, controlPacketBytes: 64 },
        cc: ecoccCc(c.scheme),
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
      let violation: string | undefined;
      net.run(undefined, () => {
        if (net.scheduler.processed % 11 === 0) {
          violation ??= creditConservationViolation(net) ?? bufferOverflowViolation(net);
        }
        return violation !== undefined;
      });
      violation ??= creditConservationViolation(net) ?? bufferOverflowViolation(net);
      expect(violation).toBeUndefined();

      const completions = net.hosts.flatMap((h) => h.completions);
      expect(completions.map((x) => x.messageId).sort((a, b) => a - b)).toEqual(
        [...expected.keys()].sort((a, b) => a - b),
      );
      for (const done of completions) expect(done.bytes).toBe(expected.get(done.messageId));
      expect(net.packets.live).toBe(0);

      const counters = net.ccCounters();
      seen.stops += (counters.stopSent ?? 0) > 0 ? 1 : 0;
      seen.misses += (counters.hotQueueMisses ?? 0) > 0 ? 1 : 0;
      seen.hotQueues += (counters.hotQueueAllocated ?? 0) > 0 ? 1 : 0;
      seen.marks += (counters.fecnMarked ?? 0) > 0 ? 1 : 0;
      expect(counters.hotQueueReleased).toBe(counters.hotQueueAllocated);
      expect(counters.goSent).toBe(counters.stopSent);
      expect(counters.deallocateSent).toBe(counters.allocateSent);
      expect(counters.hostLinesReleased ?? 0).toBe(counters.hostLinesAllocated ?? 0);
      expect(counters.hostLinesStopped ?? 0).toBe(0);
      // Every input has all its hot queues free and no line; every output CAM is empty.
      const left: string[] = [];
      for (const sw of net.switches) {
        sw.ccPart!.sampleQueues!((port, vl, variable, value) => {
          const free = variable === "freeHotQueues" && value !== c.scheme.hotQueues;
          if (free || (variable !== "freeHotQueues" && value !== 0)) {
            left.push(`${sw.name} port ${port} VL ${vl} ${variable} = ${value}`);
          }
        });
      }
      expect(left).toEqual([]);
    },
  );
});
