/**
 * TCD on random small fabrics, random loads (a hot spot to make ports pause or starve) and
 * random parameters, under both flow-control disciplines:
 * - a queue whose port has had no OFF period on its VL (`offCount` 0: never paused, never short
 *   of credits) is never in U: U needs a resume (Step 1 of the reference's state machine; the resume time starts in the far
 *   past);
 * - no packet is marked CE at a queue while it is in U (Step 1 marks UE only);
 * - a packet's code and its ECN/FECN CE agree (the column and the header say the same thing),
 *   and the run stays lossless (every message delivered).
 */
import {
  creditBlocks,
  DATA_KIND,
  type FlowControlDiscipline,
  pfcHeadroomBytes,
  type Topology,
} from "@cclab/fabric";
import { Network, type NetworkOptions } from "@cclab/network";
import { parkingLot, singleSwitch, twoLevelFatTree } from "@cclab/topologies";
import { fc, test } from "@fast-check/vitest";
import { afterAll, describe, expect } from "vitest";
import { TCD_CODE_COLUMN, TcdCode } from "../src/codes.js";
import { params } from "../src/params.js";
import { TcdState } from "../src/tcd-queue.js";
import { observedTcd } from "./observed.js";

const MTU = 1024;
const HEADER = 26;

const linkArb = fc.record({
  rateGbps: fc.constantFrom(10, 40),
  latencyNs: fc.integer({ min: 0, max: 300 }),
});

const topologyArb: fc.Arbitrary<Topology> = fc.oneof(
  fc
    .tuple(fc.integer({ min: 3, max: 6 }), linkArb)
    .map(([hosts, link]) => singleSwitch({ hosts, ...link })),
  fc
    .tuple(fc.integer({ min: 2, max: 4 }), fc.integer({ min: 1, max: 2 }), linkArb)
    .map(([switches, hostsPerSwitch, link]) => parkingLot({ switches, hostsPerSwitch, ...link })),
  fc
    .tuple(
      fc.integer({ min: 2, max: 3 }),
      fc.integer({ min: 1, max: 2 }),
      fc.integer({ min: 1, max: 3 }),
      linkArb,
    )
    .map(([leaves, spines, hostsPerLeaf, link]) =>
      twoLevelFatTree({ leaves, spines, hostsPerLeaf, routing: "d-mod-k", ...link }),
    ),
);

const caseArb = (discipline: FlowControlDiscipline) =>
  fc
    .record({
      topology: topologyArb,
      seed: fc.integer({ min: 1, max: 1_000_000 }),
      vlCount: fc.integer({ min: 1, max: 2 }),
      bufferPackets: fc.integer({ min: 2, max: 8 }),
      tcd: fc.record({
        maxTonUs: fc.constantFrom(0.2, 1, 5, 40),
        checkPeriodUs: fc.constantFrom(undefined, 0.5, 2),
        truncateTonToUs: fc.boolean(),
        ceRule: fc.constantFrom("red" as const, "infiniband" as const),
        red: fc.record({
          kMinBytes: fc.constantFrom(0, 2_000),
          kMaxBytes: fc.constantFrom(4_000, 20_000),
          pMax: fc.constantFrom(0.1, 1),
        }),
        infiniband: fc.record({
          thresholdWeight: fc.integer({ min: 0, max: 15 }),
          markingRate: fc.integer({ min: 0, max: 2 }),
        }),
      }),
      hotspot: fc.nat(),
      raw: fc.array(
        fc.record({
          src: fc.nat(),
          dst: fc.nat(),
          toHotspot: fc.boolean(),
          bytes: fc.integer({ min: 1, max: 40_000 }),
          startNs: fc.integer({ min: 0, max: 10_000 }),
          sl: fc.nat(1),
        }),
        { minLength: 2, maxLength: 16 },
      ),
    })
    .map((r) => {
      const hosts = r.topology.fabric.hosts.length;
      const packet = MTU + HEADER;
      const maxRate = Math.max(...r.topology.fabric.cables.map((c) => c.rateGbps));
      const maxLatency = Math.max(...r.topology.fabric.cables.map((c) => c.latencyNs));
      const headroom = pfcHeadroomBytes({
        rateGbps: maxRate,
        latencyNs: maxLatency,
        maxPacketBytes: packet,
        processingNs: 100,
        cutThroughBytes: packet,
      });
      const xoff = r.bufferPackets * packet;
      const bufferBytes =
        discipline === "credit" ? creditBlocks(packet) * 64 * r.bufferPackets : xoff + headroom;
      const pfc = { xoffBytes: xoff, xonBytes: Math.floor(xoff / 2) };
      const options: NetworkOptions = {
        flowControl: discipline,
        seed: r.seed,
        switch: {
          vlCount: r.vlCount,
          routingLatencyNs: 100,
          buffer: { model: "partitioned", bytesPerPortVl: bufferBytes },
          ...(discipline === "pfc" ? { pfc } : {}),
        },
        host: { mtuBytes: MTU, headerBytes: HEADER, receiveBufferBytes: bufferBytes },
        ...(discipline === "pfc" ? { hostPfc: pfc } : {}),
      };
      const hot = r.hotspot % hosts;
      const messages = r.raw.map((m) => {
        const src = m.src % hosts;
        let dst = m.toHotspot ? hot : m.dst % hosts;
        if (dst === src) dst = (src + 1) % hosts;
        return { src, dst, bytes: m.bytes, startNs: m.startNs, sl: m.sl % r.vlCount };
      });
      return { topology: r.topology, options, messages, tcd: params.parse(r.tcd) };
    });

for (const discipline of ["pfc", "credit"] as const) {
  describe(`TCD on random ${discipline} fabrics`, () => {
    // The property says something only if queues do enter U and CE marks do happen.
    let runsWithU = 0;
    let runsWithCe = 0;
    afterAll(() => {
      expect(runsWithU).toBeGreaterThan(5);
      expect(runsWithCe).toBeGreaterThan(5);
    });

    test.prop([caseArb(discipline)], { numRuns: 100 })(
      "no U without an OFF period; no CE at a queue in U; code and header agree; lossless",
      (c) => {
        const problems: string[] = [];
        let sawU = false;
        const tcd = observedTcd(c.tcd, (d) => {
          if (d.state !== TcdState.U) return;
          sawU = true;
          const vl = net.packets.vl[d.packet]!;
          const offs = tcd.contexts[d.switchIndex]!.port(d.outPort).offCount(vl);
          if (offs === 0)
            problems.push(
              `switch ${d.switchIndex} port ${d.outPort} VL ${vl} in U with no OFF period`,
            );
        });
        const net = new Network(c.topology, { ...c.options, cc: tcd.scheme });
        for (const m of c.messages) {
          net.addMessage(m.src, {
            dstHost: m.dst,
            bytes: m.bytes,
            startPs: m.startNs * 1000,
            sl: m.sl,
          });
        }
        const packets = net.packets;
        const code = packets.column(TCD_CODE_COLUMN, Uint8Array);
        net.onDelivery((p) => {
          if (packets.kindCode[p] !== DATA_KIND) return;
          const headerCe = c.tcd.ceRule === "red" ? packets.ecn[p] === 3 : packets.fecn[p] === 1;
          if (headerCe !== (code.values[p] === TcdCode.Congestion)) {
            problems.push(`packet ${p}: code ${code.values[p]} but header CE ${headerCe}`);
          }
        });
        const outcome = net.run(undefined, () => net.scheduler.processed > 3_000_000);
        expect(outcome).toBe("empty");
        expect(net.hosts.reduce((s, h) => s + h.completions.length, 0)).toBe(c.messages.length);
        // Every queue that never had an OFF period reports no time in U at the end either.
        for (const [s, part] of tcd.parts.entries()) {
          part.states((out, vl, state) => {
            if (state === TcdState.U && tcd.contexts[s]!.port(out).offCount(vl) === 0) {
              problems.push(`switch ${s} port ${out} VL ${vl} ends in U with no OFF period`);
            }
          });
        }
        expect(problems).toEqual([]);
        expect(tcd.violations).toEqual([]);
        if (sawU) runsWithU++;
        if ((net.ccCounters().ceMarked ?? 0) > 0) runsWithCe++;
      },
    );
  });
}
