/**
 * The InfiniBand scheme on whole fabrics: random small topologies, random traffic and random
 * CC parameters, with the scheme installed on every switch and host. Congestion control must
 * not break the fabric's semantics (lossless, exactly-once delivery, credit conservation,
 * buffers within their size), its CCTIs stay within [CCTI_Min, CCTI_Limit], and its counters
 * agree with what the hosts actually receive.
 */
import type { CcScheme, Topology } from "@cclab/fabric";
import {
  bufferOverflowViolation,
  creditConservationViolation,
  Network,
  type NetworkOptions,
} from "@cclab/network";
import { karyNTree, parkingLot, singleSwitch } from "@cclab/topologies";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { type IbCcParams, infinibandCc, params } from "../src/index.js";

const MTU = 2048;

const linkArb = fc.record({
  rateGbps: fc.constantFrom(10, 40, 100),
  latencyNs: fc.integer({ min: 0, max: 300 }),
});

/**
 * Random small topologies; `minHostsPerSwitch` 2 gives every one at least 3 hosts, `sprayed`
 * false keeps the trees on d-mod-k (one path per destination), and `slowTrunks` false keeps a
 * parking lot's trunk at the hosts' rate.
 */
const topologyArb = (
  minHostsPerSwitch = 1,
  sprayed = true,
  slowTrunks = true,
): fc.Arbitrary<Topology> =>
  fc.oneof(
    fc
      .tuple(fc.integer({ min: 3, max: 8 }), linkArb)
      .map(([hosts, link]) => singleSwitch({ hosts, ...link })),
    // Two-switch parking lots, the inter-switch cable sometimes slower (a congested trunk).
    fc
      .tuple(
        fc.integer({ min: minHostsPerSwitch, max: 4 }),
        linkArb,
        slowTrunks ? fc.constantFrom(1, 0.5, 0.25) : fc.constant(1),
      )
      .map(([hostsPerSwitch, link, trunk]) =>
        parkingLot({
          switches: 2,
          hostsPerSwitch,
          ...link,
          interSwitchRateGbps: link.rateGbps * trunk,
        }),
      ),
    fc
      .tuple(
        fc.constantFrom([2, 2] as const, [3, 2] as const, [2, 3] as const),
        linkArb,
        sprayed
          ? fc.constantFrom("d-mod-k" as const, "nca-random" as const)
          : fc.constant("d-mod-k" as const),
      )
      .map(([[k, n], link, routing]) => karyNTree({ k, n, routing, ...link })),
  );

/** Scenario parameters of the scheme, as a scenario file would give them. */
const ccInputArb = fc.record({
  preset: fc.constantFrom("paper3-hardware" as const, "paper4-fattree" as const),
  thresholds: fc.oneof(
    fc
      .oneof(fc.constantFrom(12, 15), fc.integer({ min: 0, max: 15 }))
      .map((w) => ({ thresholdWeight: w })),
    fc
      .tuple(fc.integer({ min: 1, max: 12_000 }), fc.integer({ min: 0, max: 12_000 }))
      .map(([a, b]) => ({ thresholdHighBytes: Math.max(a, b), thresholdLowBytes: Math.min(a, b) })),
  ),
  thresholdMapping: fc.constantFrom("voq" as const, "sum" as const, "sum-per-input" as const),
  victimMask: fc.constantFrom("host-ports" as const, "none" as const, "all" as const),
  markingRate: fc.integer({ min: 0, max: 3 }),
  marking: fc.constantFrom("probability" as const, "count" as const),
  packetSize64B: fc.constantFrom(0, 1, 8, 33),
  cctiIncrease: fc.integer({ min: 1, max: 4 }),
  cctiLimit: fc.oneof(fc.constantFrom(1, 3, 16, 127), fc.integer({ min: 1, max: 127 })),
  cctiMin: fc.constantFrom(0, 0, 0, 1, 2),
  // Short timers, so that CCTIs come down again within the runs.
  cctiTimerUs: fc.constantFrom(0.3, 1, 2.5),
  level: fc.constantFrom("qp" as const, "sl" as const),
  timer: fc.constantFrom("port-sl" as const, "per-flow" as const),
});

interface Case {
  readonly topology: Topology;
  readonly cc: IbCcParams;
  /** Install the host parts through `hostCc` (the switches' scheme then has no host parts). */
  readonly viaHostCc: boolean;
  readonly options: NetworkOptions;
  readonly messages: { src: number; dst: number; bytes: number; startNs: number; sl: number }[];
  /** Times at which the senders' CCTIs are sampled, ps. */
  readonly samplesPs: number[];
}

const flatInput = ccInputArb.map(({ thresholds, ...rest }) => ({ ...rest, ...thresholds }));

/**
 * Parameters that mark a hot spot: low weighted thresholds (≤ 1/4 of the buffer), every
 * MTU-sized packet eligible, at least a quarter of them marked.
 */
const markingInputArb = fc
  .tuple(ccInputArb, fc.integer({ min: 12, max: 15 }), fc.constantFrom(0, 1, 8))
  .map(([{ thresholds: _, ...rest }, thresholdWeight, packetSize64B]) => ({
    ...rest,
    thresholdWeight,
    packetSize64B,
  }));

/**
 * Random cases. `hotspot`: every message goes to one host from at least two others, 48–96 KB
 * each and starting within 0.5 µs of one another, on topologies of at least 3 hosts, each flow
 * on one path and no trunk slower than the hosts' links: the port to the hot spot (or a trunk
 * before it) always holds a queue. fast-check found hot spots that never mark without each of
 * these: sprayed over two spines by nca-random, a 2:1 hot spot can keep every VoQ under a
 * threshold of a quarter of the buffer (seed -2081918230); two 24 KB messages 0.8 µs apart
 * overlap too little for a VoQ, growing at half the link rate, to pass Threshold 12 of a 32 KiB
 * buffer (seed 159561468); and a sender behind a quarter-rate trunk overloads the hot spot's
 * port by a quarter only, which 4-packet buffers hold below the threshold nearly always
 * (seed -1456040976).
 */
function caseArb(
  ccInput: fc.Arbitrary<Record<string, unknown>> = flatInput,
  traffic: "any" | "hotspot" = "any",
): fc.Arbitrary<Case> {
  const hotspotOnly = traffic === "hotspot";
  return fc
    .record({
      topology: hotspotOnly ? topologyArb(2, false, false) : topologyArb(1),
      ccInput,
      viaHostCc: fc.boolean(),
      vlCount: fc.integer({ min: 1, max: 2 }),
      switching: fc.constantFrom("vct" as const, "saf" as const),
      queueing: fc.constantFrom("voq-port" as const, "1q" as const),
      bufferKiB: fc.constantFrom(8, 16, 32),
      // Sometimes output buffers behind a faster crossbar: packets then leave the VoQs at the
      // crossbar and are marked as they leave the output buffer.
      outputBufferBytes: fc.constantFrom(0, 0, 4096),
      injectionOrder: fc.constantFrom("round-robin" as const, "oldest-first" as const),
      seed: fc.integer({ min: 1, max: 1_000_000 }),
      manyToOne: hotspotOnly ? fc.constant(true) : fc.constantFrom(true, true, false),
      hotspot: fc.nat(),
      raw: fc.array(
        fc.record({
          src: fc.nat(),
          dst: fc.nat(),
          bytes: hotspotOnly
            ? fc.integer({ min: 48_000, max: 96_000 })
            : fc.oneof(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 3000, max: 60_000 })),
          startNs: fc.integer({ min: 0, max: hotspotOnly ? 500 : 5_000 }),
          sl: fc.nat(1),
        }),
        { minLength: 2, maxLength: hotspotOnly ? 4 : 8 },
      ),
      samplesNs: fc.array(fc.integer({ min: 0, max: 150_000 }), { minLength: 1, maxLength: 8 }),
    })
    .map((r) => {
      const hosts = r.topology.fabric.hosts.length;
      const input = { ...r.ccInput };
      if (typeof input.cctiMin === "number" && typeof input.cctiLimit === "number")
        input.cctiMin = Math.min(input.cctiMin, input.cctiLimit);
      const cc = params.parse(input);
      const hotspot = r.hotspot % hosts;
      const messages = r.raw.map((m, i) => {
        const dst = r.manyToOne ? hotspot : m.dst % hosts;
        // Hot spot: the first two messages come from the two hosts after it ...
        let src = hotspotOnly
          ? (hotspot + 1 + (i < 2 ? i : m.src % (hosts - 1))) % hosts
          : m.src % hosts;
        if (src === dst) src = (src + 1) % hosts;
        // ... on one SL, so that they share the queues.
        const sl = (hotspotOnly && i < 2 ? r.raw[0]!.sl : m.sl) % r.vlCount;
        return { src, dst, bytes: m.bytes, startNs: m.startNs, sl };
      });
      const options: NetworkOptions = {
        seed: r.seed,
        switch: {
          vlCount: r.vlCount,
          switching: r.switching,
          queueing: r.queueing,
          buffer: { model: "partitioned", bytesPerPortVl: r.bufferKiB * 1024 },
          ...(r.outputBufferBytes === 0
            ? {}
            : { outputBufferBytes: r.outputBufferBytes, speedup: 2 }),
        },
        host: {
          mtuBytes: MTU,
          receiveBufferBytes: r.bufferKiB * 1024,
          injectionOrder: r.injectionOrder,
        },
      };
      const samplesPs = [...r.samplesNs].sort((a, b) => a - b).map((ns) => ns * 1000);
      return { topology: r.topology, cc, viaHostCc: r.viaHostCc, options, messages, samplesPs };
    });
}

interface Outcome {
  readonly violation: string | undefined;
  readonly counters: Record<string, number>;
  /** Delivered data packets that carried FECN, and every packet (data or control) that did. */
  readonly fecnData: number;
  readonly fecnAny: number;
  readonly cnpsDelivered: number;
  readonly cctiSamples: number[];
  /** Flows the last sample (after the run) visited. */
  readonly lastSampleFlows: number;
}

function schemeOptions(c: Case): NetworkOptions {
  const scheme = infinibandCc(c.cc);
  if (!c.viaHostCc) return { ...c.options, cc: scheme };
  const switchesOnly: CcScheme = {
    specVersion: scheme.specVersion,
    name: "infiniband switches",
    ...(scheme.switchPart === undefined ? {} : { switchPart: scheme.switchPart }),
  };
  return {
    ...c.options,
    cc: switchesOnly,
    hostCc: c.topology.fabric.hosts.map(() => scheme),
  };
}

function runCase(c: Case): Outcome {
  const net = new Network(c.topology, schemeOptions(c));
  const maxRate = Math.max(...c.topology.fabric.cables.map((cable) => cable.rateGbps));
  const expected = new Map<number, number>();
  for (const m of c.messages) {
    const id = net.addMessage(m.src, {
      dstHost: m.dst,
      bytes: m.bytes,
      startPs: m.startNs * 1000,
      sl: m.sl,
    });
    expected.set(id, m.bytes);
  }
  const deliveries = new Map<string, number>();
  let fecnData = 0;
  let fecnAny = 0;
  let cnpsDelivered = 0;
  let violation: string | undefined;
  const packets = net.packets;
  net.onDelivery((packet) => {
    if (packets.fecn[packet] === 1) fecnAny++;
    const kind = packets.kind(packet);
    if (kind === "cnp") {
      cnpsDelivered++;
      if (packets.becn[packet] === 0) violation ??= "a CNP arrived without BECN";
    }
    if (kind !== "data") return;
    if (packets.fecn[packet] === 1) fecnData++;
    const key = `${packets.messageId[packet]}/${packets.seqInMessage[packet]}`;
    deliveries.set(key, (deliveries.get(key) ?? 0) + 1);
  });
  const stopWhen = () => {
    violation ??= creditConservationViolation(net) ?? bufferOverflowViolation(net);
    return violation !== undefined || net.scheduler.processed > 3_000_000;
  };
  const cctiSamples: number[] = [];
  let lastSampleFlows = 0;
  const sample = () => {
    lastSampleFlows = 0;
    net.sampleCcFlows((flowId, variable, value) => {
      if (variable === "ccti") {
        lastSampleFlows++;
        cctiSamples.push(value);
        if (!Number.isInteger(value) || value < c.cc.cctiMin || value > c.cc.cctiLimit) {
          violation ??= `flow ${flowId} at ${net.nowPs} ps: CCTI ${value} outside [${c.cc.cctiMin}, ${c.cc.cctiLimit}]`;
        }
      } else if (variable === "rateGbps") {
        if (!(value > 0 && value <= maxRate)) {
          violation ??= `flow ${flowId} at ${net.nowPs} ps: rate ${value} Gb/s`;
        }
      }
    });
  };
  for (const at of c.samplesPs) {
    if (at < net.nowPs) continue;
    const outcome = net.run(at, stopWhen);
    if (outcome === "stopped") break;
    sample();
  }
  if (violation === undefined) {
    const outcome = net.run(undefined, stopWhen);
    if (violation === undefined && outcome !== "empty")
      violation = `run did not finish (${outcome})`;
    sample();
  }
  if (violation === undefined) {
    for (const [key, count] of deliveries) {
      if (count !== 1) violation ??= `packet ${key} delivered ${count} times`;
    }
    const completed = new Map<number, number>();
    for (const host of net.hosts)
      for (const done of host.completions) completed.set(done.messageId, done.bytes);
    for (const [id, bytes] of expected) {
      if (completed.get(id) !== bytes)
        violation ??= `message ${id} (${bytes} B) completed with ${completed.get(id)} B`;
    }
    const mtu = c.options.host?.mtuBytes ?? MTU;
    const packets = [...expected.values()].reduce((sum, b) => sum + Math.ceil(b / mtu), 0);
    if (deliveries.size !== packets)
      violation ??= `${deliveries.size} distinct packets delivered, ${packets} sent`;
  }
  return {
    violation,
    counters: net.ccCounters(),
    fecnData,
    fecnAny,
    cnpsDelivered,
    cctiSamples,
    lastSampleFlows,
  };
}

describe("the InfiniBand scheme on random fabrics", () => {
  test.prop([caseArb()], { numRuns: 60 })(
    "lossless and exactly once, credits conserved, CCTIs within [CCTI_Min, CCTI_Limit]",
    (c) => {
      const out = runCase(c);
      expect(out.violation).toBeUndefined();
      // The sample after the run visits every flow: one per source, destination and SL.
      const flows = new Set(c.messages.map((m) => `${m.src}/${m.dst}/${m.sl}`));
      expect(out.lastSampleFlows).toBe(flows.size);
    },
  );

  // Mostly hot spots with marking parameters, which always mark, so that the counters have
  // something to count; the rest any case.
  const countedArb = fc.oneof(
    { weight: 3, arbitrary: caseArb(markingInputArb, "hotspot").map((c) => ({ c, marks: true })) },
    { weight: 1, arbitrary: caseArb().map((c) => ({ c, marks: false })) },
  );
  test.prop([countedArb], { numRuns: 60 })(
    "counters agree with what arrives: each marked packet makes one CNP, one BECN",
    ({ c, marks }) => {
      const out = runCase(c);
      expect(out.violation).toBeUndefined();
      const n = out.counters;
      if (marks) expect(n.fecnMarked).toBeGreaterThan(0);
      // FECN marks are only ever set on data packets, once each.
      expect(out.fecnAny).toBe(out.fecnData);
      expect(n.fecnMarked).toBe(out.fecnData);
      expect(n.fecnReceived).toBe(out.fecnData);
      expect(n.cnpSent).toBe(out.fecnData);
      expect(out.cnpsDelivered).toBe(n.cnpSent);
      expect(n.becnReceived).toBe(n.cnpSent);
      if (n.fecnMarked! > 0) expect(n.congestionEntries).toBeGreaterThan(0);
    },
  );

  test.prop(
    [caseArb(ccInputArb.map(({ thresholds: _, ...rest }) => ({ ...rest, thresholdWeight: 0 })))],
    { numRuns: 25 },
  )("Threshold 0: no packet ever carries FECN and nothing is throttled", (c) => {
    const out = runCase(c);
    expect(out.violation).toBeUndefined();
    expect(out.fecnAny).toBe(0);
    expect(out.counters.fecnMarked).toBe(0);
    expect(out.counters.congestionEntries).toBe(0);
    expect(out.counters.cnpSent).toBe(0);
    expect(out.counters.becnReceived).toBe(0);
    expect(out.cctiSamples.every((x) => x === c.cc.cctiMin)).toBe(true);
  });
});

describe("the InfiniBand scheme on fixed fabrics", () => {
  const hotspotCase = (input: Record<string, unknown>): Case => ({
    topology: singleSwitch({ hosts: 5, rateGbps: 40, latencyNs: 100 }),
    cc: params.parse(input),
    viaHostCc: false,
    options: { seed: 7, host: { mtuBytes: MTU } },
    // Four senders, 200 KB each, into host 0: its port is the root of a congestion tree.
    messages: [1, 2, 3, 4].map((src) => ({ src, dst: 0, bytes: 200_000, startNs: 0, sl: 0 })),
    samplesPs: Array.from({ length: 40 }, (_, i) => (i + 1) * 2_000_000),
  });

  it("a hot spot is marked, notified and throttled", () => {
    const out = runCase(hotspotCase({ preset: "paper4-fattree", cctiTimerUs: 5 }));
    expect(out.violation).toBeUndefined();
    expect(out.counters.fecnMarked).toBeGreaterThan(0);
    expect(out.counters.becnReceived).toBe(out.counters.fecnMarked);
    expect(Math.max(...out.cctiSamples)).toBeGreaterThan(0);
    expect(out.counters.cctiDecrements).toBeGreaterThan(0);
  });

  it("a hot spot behind output buffers is marked too", () => {
    const c = hotspotCase({ preset: "paper4-fattree", cctiTimerUs: 5 });
    const out = runCase({
      ...c,
      options: { ...c.options, switch: { outputBufferBytes: 4096, speedup: 2 } },
    });
    expect(out.violation).toBeUndefined();
    expect(out.counters.fecnMarked).toBeGreaterThan(0);
  });

  it("a larger Marking_Rate marks fewer packets of the same hot spot", () => {
    const every = runCase(hotspotCase({ preset: "paper4-fattree", marking: "count" }));
    const fourth = runCase(
      hotspotCase({ preset: "paper4-fattree", marking: "count", markingRate: 3 }),
    );
    expect(every.violation).toBeUndefined();
    expect(fourth.violation).toBeUndefined();
    expect(fourth.counters.fecnMarked).toBeGreaterThan(0);
    expect(fourth.counters.fecnMarked).toBeLessThan(every.counters.fecnMarked!);
  });

  it("srp-ecn throttles a hot spot on the SRP paper's network: 10 Gb/s, 256-byte packets, 4 KiB buffers", () => {
    const out = runCase({
      topology: singleSwitch({ hosts: 5, rateGbps: 10, latencyNs: 32 }),
      cc: params.parse({ preset: "srp-ecn" }),
      viaHostCc: false,
      options: {
        seed: 3,
        switch: { buffer: { model: "partitioned", bytesPerPortVl: 4096 } },
        host: { mtuBytes: 256, receiveBufferBytes: 4096 },
      },
      messages: [1, 2, 3, 4].map((src) => ({ src, dst: 0, bytes: 64_000, startNs: 0, sl: 0 })),
      samplesPs: Array.from({ length: 40 }, (_, i) => (i + 1) * 2_000_000),
    });
    expect(out.violation).toBeUndefined();
    expect(out.counters.fecnMarked).toBeGreaterThan(0);
    expect(out.counters.becnReceived).toBe(out.counters.fecnMarked);
    // Each BECN is 16 steps of 50 ns; each 2 µs without one, one step down.
    expect(Math.max(...out.cctiSamples)).toBeGreaterThanOrEqual(16);
    expect(out.counters.cctiDecrements).toBeGreaterThan(0);
  });

  it("a lone flow across two switches is never marked (no queue builds behind it)", () => {
    const out = runCase({
      topology: parkingLot({ switches: 2, hostsPerSwitch: 1, rateGbps: 40, latencyNs: 100 }),
      cc: params.parse({ preset: "paper4-fattree" }),
      viaHostCc: false,
      options: { seed: 1, host: { mtuBytes: MTU } },
      messages: [{ src: 0, dst: 1, bytes: 500_000, startNs: 0, sl: 0 }],
      samplesPs: [1_000_000],
    });
    expect(out.violation).toBeUndefined();
    expect(out.counters.fecnMarked).toBe(0);
    expect(out.cctiSamples.every((x) => x === 0)).toBe(true);
  });
});
