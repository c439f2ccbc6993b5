/**
 * DCQCN on whole PFC fabrics: random small topologies, random hot-spot traffic and random
 * parameters, the scheme on every switch and host. Congestion control must not break the
 * fabric's semantics (nothing dropped, every message delivered exactly once, no buffer above
 * its size: the PFC headroom holds), rates stay within [minimum rate, line rate], and with
 * marking out of reach nothing is marked and every flow keeps line rate.
 */
import type { Topology } from "@cclab/fabric";
import { bufferOverflowViolation, Network, type NetworkOptions } from "@cclab/network";
import { singleSwitch, twoLevelFatTree } from "@cclab/topologies";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { type DcqcnParams, dcqcnCc, params } from "../src/index.js";

const linkArb = fc.record({
  rateGbps: fc.constantFrom(25, 40, 100),
  latencyNs: fc.integer({ min: 0, max: 1000 }),
});

const topologyArb: fc.Arbitrary<Topology> = fc.oneof(
  fc
    .tuple(fc.integer({ min: 3, max: 8 }), linkArb)
    .map(([hosts, link]) => singleSwitch({ hosts, ...link })),
  fc
    .tuple(
      fc.integer({ min: 2, max: 3 }),
      fc.integer({ min: 1, max: 2 }),
      fc.integer({ min: 2, max: 3 }),
      linkArb,
    )
    .map(([leaves, spines, hostsPerLeaf, link]) =>
      twoLevelFatTree({ leaves, spines, hostsPerLeaf, routing: "ecmp", ...link }),
    ),
);

/** Parameters that mark at the hot spot: low thresholds and short timers. */
const markingArb = fc
  .record({
    preset: fc.constantFrom("paper" as const, "nic" as const),
    kminBytes: fc.integer({ min: 0, max: 20_000 }),
    spanBytes: fc.integer({ min: 0, max: 60_000 }),
    pmax: fc.constantFrom(0.05, 0.2, 1),
    markAt: fc.constantFrom("dequeue" as const, "enqueue" as const),
    g: fc.constantFrom(1 / 256, 1 / 16),
    cnpIntervalUs: fc.constantFrom(5, 50),
    alphaTimerUs: fc.constantFrom(1, 10, 55),
    increaseTimerUs: fc.constantFrom(5, 20, 55),
    byteCounterBytes: fc.constantFrom(null, 2_000, 20_000),
    minRateMbps: fc.constantFrom(100, 1000, 5000),
  })
  .map(({ spanBytes, ...r }) => ({ ...r, kmaxBytes: r.kminBytes + spanBytes }));

interface Case {
  readonly topology: Topology;
  readonly cc: DcqcnParams;
  readonly options: NetworkOptions;
  readonly messages: { src: number; dst: number; bytes: number; startNs: number }[];
}

function caseArb(input: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Case> {
  return fc
    .record({
      topology: topologyArb,
      input,
      seed: fc.integer({ min: 1, max: 1_000_000 }),
      hotspot: fc.nat(),
      // Input-queued switches (the default), or output buffers with and without speedup: the
      // egress queue then includes the output buffer.
      outputs: fc.constantFrom(
        { outputBufferBytes: 0, speedup: 1 },
        { outputBufferBytes: 65536, speedup: 1 },
        { outputBufferBytes: 262144, speedup: 2 },
      ),
      raw: fc.array(
        fc.record({
          src: fc.nat(),
          bytes: fc.integer({ min: 20_000, max: 150_000 }),
          startNs: fc.integer({ min: 0, max: 3000 }),
        }),
        { minLength: 2, maxLength: 6 },
      ),
    })
    .map((r) => {
      const hosts = r.topology.fabric.hosts.length;
      const dst = r.hotspot % hosts;
      // Many to one: the hot spot's downlink holds a queue.
      const messages = r.raw.map((m, i) => {
        const src = (dst + 1 + (i < 2 ? i : m.src % (hosts - 1))) % hosts;
        return { src, dst, bytes: m.bytes, startNs: m.startNs };
      });
      const options: NetworkOptions = {
        seed: r.seed,
        flowControl: "pfc",
        switch: {
          buffer: {
            model: "shared",
            sharedBytes: 1 << 20,
            alpha: 0.125,
            headroomBytes: 32768,
            xonOffsetBytes: 2048,
          },
          ...r.outputs,
        },
        host: { mtuBytes: 1000, receiveBufferBytes: 65536 },
        hostPfc: { xoffBytes: 32768, xonBytes: 16384 },
      };
      return { topology: r.topology, cc: params.parse(r.input), options, messages };
    });
}

function runCase(c: Case) {
  const net = new Network(c.topology, { ...c.options, cc: dcqcnCc(c.cc) });
  const lineRate = Math.max(...c.topology.fabric.cables.map((cable) => cable.rateGbps));
  const expected = new Map<number, number>();
  for (const m of c.messages) {
    const id = net.addMessage(m.src, { dstHost: m.dst, bytes: m.bytes, startPs: m.startNs * 1000 });
    expected.set(id, m.bytes);
  }
  const deliveries = new Map<string, number>();
  const packets = net.packets;
  net.onDelivery((packet) => {
    if (packets.kindCode[packet] !== 0) return;
    const key = `${packets.messageId[packet]}/${packets.seqInMessage[packet]}`;
    deliveries.set(key, (deliveries.get(key) ?? 0) + 1);
  });
  let violation: string | undefined;
  const rates: number[] = [];
  const sample = () =>
    net.sampleCcFlows((flowId, variable, value) => {
      if (variable === "rateGbps" || variable === "targetRateGbps") {
        rates.push(value);
        const min = Math.min(c.cc.minRateMbps / 1000, lineRate);
        if (!(value >= min - 1e-9 && value <= lineRate + 1e-9)) {
          violation ??= `flow ${flowId} at ${net.nowPs} ps: ${variable} ${value} outside [${min}, ${lineRate}]`;
        }
      }
    });
  net.run(undefined, () => {
    violation ??= bufferOverflowViolation(net);
    if (net.scheduler.processed % 97 === 0) sample();
    return violation !== undefined || net.scheduler.processed > 2_000_000;
  });
  sample();
  const completed = net.hosts.flatMap((h) => h.completions);
  return {
    violation,
    rates,
    counters: net.ccCounters(),
    drops: net.switches.reduce((s, sw) => s + sw.droppedPackets, 0),
    deliveredOnce: [...deliveries.values()].every((n) => n === 1),
    complete:
      completed.length === expected.size &&
      completed.every((m) => expected.get(m.messageId) === m.bytes),
  };
}

/**
 * A 2:1 incast at 100 Gb/s on one switch (PFC, 4 MB shared memory) with DCQCN of `input`: H0
 * and H1 each send one message of `bytes` to H2 at time 0. Not yet run.
 */
function incast(
  input: Record<string, unknown>,
  bytes: number,
  outputs: { outputBufferBytes: number; speedup: number } = { outputBufferBytes: 0, speedup: 1 },
): Network {
  const net = new Network(singleSwitch({ hosts: 3, rateGbps: 100, latencyNs: 500 }), {
    seed: 3,
    flowControl: "pfc",
    switch: {
      buffer: {
        model: "shared",
        sharedBytes: 4 << 20,
        alpha: 0.125,
        headroomBytes: 32768,
        xonOffsetBytes: 2048,
      },
      ...outputs,
    },
    host: { mtuBytes: 1000, receiveBufferBytes: 65536 },
    hostPfc: { xoffBytes: 32768, xonBytes: 16384 },
    cc: dcqcnCc(params.parse(input)),
  });
  for (const src of [0, 1]) net.addMessage(src, { dstHost: 2, bytes, startPs: 0 });
  return net;
}

/** Runs of the first property, and those in which the switches marked (and flows were cut). */
const tally = { runs: 0, marked: 0, cut: 0 };

describe("DCQCN on PFC fabrics", () => {
  test.prop([caseArb(markingArb)], { numRuns: 25 })(
    "loses nothing, overflows no buffer, delivers every message once, keeps rates within [min, line]",
    (c) => {
      const o = runCase(c);
      expect(o.violation).toBeUndefined();
      expect(o.drops).toBe(0);
      expect(o.deliveredOnce).toBe(true);
      expect(o.complete).toBe(true);
      // Every mark reaches its receiver, and every notification its sender.
      expect(o.counters.ceReceived).toBe(o.counters.ceMarked);
      expect(o.counters.cnpReceived).toBe(o.counters.cnpSent);
      tally.runs++;
      if (o.counters.ceMarked! > 0) tally.marked++;
      if (o.counters.rateCuts! > 0) tally.cut++;
    },
  );

  it("the hot spots of those runs mostly marked and cut (the property exercised the scheme)", () => {
    expect(tally.marked / tally.runs).toBeGreaterThan(0.6);
    expect(tally.cut / tally.runs).toBeGreaterThan(0.6);
  });

  it("byte-counter increases while a packet starts do not start a second one on the busy uplink", () => {
    // Long flows below line rate: the `paper` byte counter fires as a packet is sent, and the
    // host is asked to send again then (a host throws if it ever starts two packets at once).
    for (const byteCounterBytes of [1_000, 5_000]) {
      const net = incast(
        { preset: "paper", byteCounterBytes, kminBytes: 5_000, kmaxBytes: 25_000 },
        2_000_000,
      );
      net.run();
      const completed = net.hosts.flatMap((h) => h.completions);
      expect(completed).toHaveLength(2);
      expect(net.ccCounters().rateCuts).toBeGreaterThan(0);
      expect(net.ccCounters().rateIncreases).toBeGreaterThan(0);
    }
  });

  it("marks on the output buffer's queue: a 2:1 incast whose excess waits there, not at the inputs", () => {
    const marksWith = (outputBufferBytes: number) => {
      const net = incast(
        { preset: "nic", kminBytes: 20_000, kmaxBytes: 20_000, pmax: 1 },
        150_000,
        { outputBufferBytes, speedup: outputBufferBytes > 0 ? 2 : 1 },
      );
      net.run();
      const inputMaxBytes = Math.max(
        ...net.switches[0]!.portStats(net.nowPs).flatMap((port) => port.maxInputBytes),
      );
      return { marks: net.ccCounters().ceMarked!, inputMaxBytes };
    };
    // With a 1 MB output buffer and speedup 2 the inputs hold a packet or two; the ~150 KB of
    // excess waits in the output buffer, above K = 20 KB: marked.
    const buffered = marksWith(1 << 20);
    expect(buffered.inputMaxBytes).toBeLessThan(20_000);
    expect(buffered.marks).toBeGreaterThan(0);
    // Input-queued, the same excess waits at the inputs, and is marked there too.
    expect(marksWith(0).marks).toBeGreaterThan(0);
  });

  test.prop(
    [
      caseArb(
        fc
          .record({ preset: fc.constantFrom("paper" as const, "nic" as const) })
          .map((r) => ({ ...r, kminBytes: 1e15, kmaxBytes: 1e15 })),
      ),
    ],
    {
      numRuns: 15,
    },
  )(
    "with marking out of reach marks nothing, cuts nothing and keeps every flow at line rate",
    (c) => {
      const o = runCase(c);
      expect(o.violation).toBeUndefined();
      expect(o.complete).toBe(true);
      expect([o.counters.ceMarked, o.counters.rateCuts, o.counters.cnpReceived]).toEqual([0, 0, 0]);
      const lineRate = Math.max(...c.topology.fabric.cables.map((cable) => cable.rateGbps));
      expect(o.rates.every((r) => r === lineRate)).toBe(true);
    },
  );
});
