/**
 * BCN and E2CM on whole PFC fabrics, set up as the E2CM scenarios are
 * (scenarios/e2cm/ig-baseline-e2cm.yaml: one switch, 10 Gb/s, 1500-B frames without headers,
 * 300 KB per input port and VL, PAUSE at 280/260 KB, oldest-first outputs). Congestion control
 * must not break the fabric's semantics (docs/model.md, "Invariants"): nothing is dropped,
 * no buffer overflows, every data packet a host started is delivered once or still in the
 * network; rates stay within [R_min, line rate]. Without any oversubscribed output, nothing
 * is limited and every flow gets what it offers. The same scenario and seed give the same run.
 */
import { serializationPs, usToPs } from "@cclab/core-des";
import { DATA_KIND, type Topology } from "@cclab/fabric";
import { bufferOverflowViolation, Network, type NetworkOptions } from "@cclab/network";
import { singleSwitch } from "@cclab/topologies";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { type E2cmParams, e2cmCc, params } from "../src/index.js";

const LINK_GBPS = 10;
const FRAME = 1500;

/** The switch and hosts of the E2CM scenarios (ig-baseline-e2cm.yaml). */
const OPTIONS: NetworkOptions = {
  flowControl: "pfc",
  switch: {
    arbitration: "oldest-first",
    buffer: { model: "partitioned", bytesPerPortVl: 300_000 },
    pfc: { xoffBytes: 280_000, xonBytes: 260_000 },
  },
  host: { mtuBytes: FRAME, headerBytes: 0, receiveBufferBytes: 300_000 },
};

/** A flow: one greedy message from `startNs`, or one frame every FRAME/rate from 0 on. */
interface Flow {
  readonly src: number;
  readonly dst: number;
  readonly startNs: number;
  /** Offered rate, Gb/s; undefined: greedy (one message that outlasts the run). */
  readonly rateGbps?: number;
}

interface Case {
  readonly topology: Topology;
  readonly seed: number;
  readonly cc: E2cmParams;
  readonly flows: readonly Flow[];
  readonly durationUs: number;
}

const topologyArb = fc
  .integer({ min: 3, max: 8 })
  .map((hosts) => singleSwitch({ hosts, rateGbps: LINK_GBPS, latencyNs: 500 }));

/**
 * Parameters of the scheme: a preset, either mode (BCN with limiters per flow or per
 * congestion point), and switches that sample more often than the slides (the runs are
 * short), some with BCN(0,0) instead of BCN_MAX.
 */
const ccArb = fc
  .record({
    preset: fc.constantFrom(
      "reference" as const,
      "orientative-ig" as const,
      "orientative-og" as const,
    ),
    mode: fc.constantFrom("bcn" as const, "e2cm" as const, "bcn-per-point" as const),
    sampleEveryBytes: fc.constantFrom(7_500, 15_000, 75_000),
    probeEveryBytes: fc.constantFrom(15_000, 75_000),
    severe: fc.constantFrom("bcnMax", "bcnZero", "none"),
    minRateMbps: fc.constantFrom(undefined, 100, 1_000),
  })
  .map(({ severe, mode, ...r }) =>
    params.parse({
      ...r,
      mode: mode === "e2cm" ? "e2cm" : "bcn",
      rateLimiters: mode === "bcn-per-point" ? "per-congestion-point" : "per-flow",
      bcnMax: severe === "bcnMax",
      bcnZero: severe === "bcnZero",
    }),
  );

/** 2–5 greedy senders to one host (fewer on small fabrics), each from a random time. */
const hotSpotArb: fc.Arbitrary<Case> = fc
  .record({
    topology: topologyArb,
    seed: fc.integer({ min: 1, max: 1_000_000 }),
    cc: ccArb,
    hot: fc.nat(),
    senders: fc.integer({ min: 2, max: 5 }),
    order: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
    startsNs: fc.array(fc.integer({ min: 0, max: 50_000 }), { minLength: 5, maxLength: 5 }),
    durationUs: fc.constantFrom(1_000, 2_000),
  })
  .map((r) => {
    const hosts = r.topology.fabric.hosts.length;
    const dst = r.hot % hosts;
    // The other hosts, in a random order; the first `senders` of them send.
    const others = Array.from({ length: hosts - 1 }, (_, i) => (dst + 1 + i) % hosts)
      .map((h, i) => ({ h, key: r.order[i]! }))
      .sort((a, b) => a.key - b.key || a.h - b.h)
      .map((x) => x.h);
    const flows = others
      .slice(0, Math.min(r.senders, hosts - 1))
      .map((src, i) => ({ src, dst, startNs: r.startsNs[i]! }));
    return { topology: r.topology, seed: r.seed, cc: r.cc, flows, durationUs: r.durationUs };
  });

/**
 * E2CM without a hot spot: each host sends to its image under a random permutation (not to
 * itself), at a random rate up to 0.9 of its link; no output gets more than one flow.
 */
const noHotSpotArb: fc.Arbitrary<Case> = fc
  .record({
    topology: topologyArb,
    seed: fc.integer({ min: 1, max: 1_000_000 }),
    sampleEveryBytes: fc.constantFrom(1_500, 15_000, 75_000),
    preset: fc.constantFrom(
      "reference" as const,
      "orientative-ig" as const,
      "orientative-og" as const,
    ),
    keys: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
    ratesGbps: fc.array(fc.double({ min: 1, max: 0.9 * LINK_GBPS, noNaN: true }), {
      minLength: 8,
      maxLength: 8,
    }),
  })
  .map((r) => {
    const hosts = r.topology.fabric.hosts.length;
    const image = Array.from({ length: hosts }, (_, h) => h).sort(
      (a, b) => r.keys[a]! - r.keys[b]! || a - b,
    );
    const flows = image.flatMap((dst, src) =>
      dst === src ? [] : [{ src, dst, startNs: 0, rateGbps: r.ratesGbps[src]! }],
    );
    const cc = params.parse({
      preset: r.preset,
      mode: "e2cm",
      sampleEveryBytes: r.sampleEveryBytes,
    });
    return { topology: r.topology, seed: r.seed, cc, flows, durationUs: 1_200 };
  });

interface Outcome {
  readonly violation: string | undefined;
  readonly counters: Record<string, number>;
  readonly drops: number;
  /** Rates sampled during the run, Gb/s. */
  readonly rates: number[];
  /** Per flow id: payload bytes delivered in the measured window [100 µs, end). */
  readonly windowBytes: Map<number, number>;
  /** Per flow id: its source and destination. */
  readonly flowIds: Map<string, number>;
  /** Deliveries in order: time, message and packet. */
  readonly trace: string[];
}

const WINDOW_FROM_US = 100;

function runCase(c: Case): Outcome {
  const net = new Network(c.topology, { ...OPTIONS, seed: c.seed, cc: e2cmCc(c.cc) });
  const endPs = usToPs(c.durationUs);
  for (const f of c.flows) {
    if (f.rateGbps === undefined) {
      // Greedy: more than the link carries in the run.
      net.addMessage(f.src, { dstHost: f.dst, bytes: 1e9, startPs: f.startNs * 1000 });
    } else {
      // One frame every FRAME / rate: a constant offered rate.
      const gapPs = serializationPs(FRAME, f.rateGbps);
      for (let t = f.startNs * 1000; t < endPs; t += gapPs) {
        net.addMessage(f.src, { dstHost: f.dst, bytes: FRAME, startPs: t });
      }
    }
  }
  const packets = net.packets;
  let violation: string | undefined;
  // Conservation: every data packet a host starts, BCN frame a switch makes and probe a
  // destination returns is consumed by a host once, or is still in the network.
  const inFlight = new Set<string>();
  const delivered = new Set<string>();
  let started = 0;
  let consumed = 0;
  const windowBytes = new Map<number, number>();
  const flowIds = new Map<string, number>();
  const trace: string[] = [];
  const key = (p: number) => `${packets.messageId[p]}/${packets.seqInMessage[p]}`;
  for (const host of net.hosts) {
    host.observePackets(
      (p) => {
        if (packets.kindCode[p] !== DATA_KIND) return;
        started++;
        const k = key(p);
        if (inFlight.has(k) || delivered.has(k)) violation ??= `packet ${k} started twice`;
        inFlight.add(k);
      },
      (p) => {
        consumed++;
        if (packets.kindCode[p] !== DATA_KIND) return;
        const k = key(p);
        if (!inFlight.delete(k)) violation ??= `packet ${k} consumed but not in flight`;
        delivered.add(k);
        const flowId = packets.flowId[p]!;
        flowIds.set(`${packets.srcHost[p]}>${packets.dstHost[p]}`, flowId);
        trace.push(`${net.nowPs}:${k}`);
        if (net.nowPs >= usToPs(WINDOW_FROM_US)) {
          windowBytes.set(flowId, (windowBytes.get(flowId) ?? 0) + packets.payloadBytes[p]!);
        }
      },
    );
  }
  const lineRate = LINK_GBPS;
  const minRate = c.cc.minRateMbps / 1000;
  const rates: number[] = [];
  const sample = () =>
    net.sampleCcFlows((flowId, variable, value) => {
      if (variable !== "rateGbps") return;
      rates.push(value);
      if (!(value >= minRate && value <= lineRate)) {
        violation ??= `flow ${flowId} at ${net.nowPs} ps: rate ${value} Gb/s outside [${minRate}, ${lineRate}]`;
      }
    });
  net.run(endPs, () => {
    if (net.scheduler.processed % 53 === 0) {
      sample();
      violation ??= bufferOverflowViolation(net);
    }
    return violation !== undefined;
  });
  sample();
  violation ??= bufferOverflowViolation(net);
  const counters = net.ccCounters();
  const made =
    (counters.bcnNegative ?? 0) +
    (counters.bcnPositive ?? 0) +
    (counters.bcnMax ?? 0) +
    (counters.bcnZero ?? 0) +
    (counters.probesReturned ?? 0);
  if (violation === undefined && started + made - consumed !== packets.live) {
    violation = `${started} data packets + ${made} BCN frames and returned probes − ${consumed} consumed ≠ ${packets.live} in the network`;
  }
  if (violation === undefined && started - delivered.size !== inFlight.size) {
    violation = `${started} data packets started, ${delivered.size} delivered, ${inFlight.size} in flight`;
  }
  return {
    violation,
    counters,
    drops: net.switches.reduce((s, sw) => s + sw.droppedPackets, 0),
    rates,
    windowBytes,
    flowIds,
    trace,
  };
}

/** Runs of the first property, and those in which the scheme cut and probed. */
const tally = { runs: 0, cut: 0, e2cmRuns: 0, probed: 0 };

describe("BCN and E2CM on PFC fabrics", () => {
  test.prop([hotSpotArb], { numRuns: 50 })(
    "hot spots: nothing dropped, every packet delivered once or in flight, rates within [R_min, line]",
    (c) => {
      const o = runCase(c);
      expect(o.violation).toBeUndefined();
      expect(o.drops).toBe(0);
      expect(o.rates.length).toBeGreaterThan(0);
      // Every BCN frame and returned probe reached its host, or is still on its way.
      expect(o.counters.bcnReceived).toBeLessThanOrEqual(o.counters.samples!);
      expect(o.counters.probesReceived ?? 0).toBeLessThanOrEqual(o.counters.probesReturned ?? 0);
      expect(o.counters.probesReturned ?? 0).toBeLessThanOrEqual(o.counters.probesSent!);
      expect(o.counters.limitersActive).toBe(
        o.counters.limitersCreated! - o.counters.limitersReleased!,
      );
      if (c.cc.mode === "bcn") expect(o.counters.probesSent).toBe(0);
      tally.runs++;
      if (o.counters.rateCuts! > 0) tally.cut++;
      if (c.cc.mode === "e2cm") {
        tally.e2cmRuns++;
        if (o.counters.probesReceived! > 0) tally.probed++;
      }
    },
  );

  it("those hot spots mostly cut rates, and E2CM's mostly probed (the property exercised the scheme)", () => {
    expect(tally.cut / tally.runs).toBeGreaterThan(0.8);
    expect(tally.probed / Math.max(1, tally.e2cmRuns)).toBeGreaterThan(0.6);
  });

  test.prop([noHotSpotArb], { numRuns: 20 })(
    "E2CM without an oversubscribed output: no limiter left, every flow gets its offered rate (±2 %)",
    (c) => {
      const o = runCase(c);
      expect(o.violation).toBeUndefined();
      expect(o.drops).toBe(0);
      expect(o.counters.limitersActive).toBe(0);
      expect(o.rates.every((r) => r === LINK_GBPS)).toBe(true);
      const windowS = (c.durationUs - WINDOW_FROM_US) * 1e-6;
      for (const f of c.flows) {
        const flowId = o.flowIds.get(`${f.src}>${f.dst}`);
        expect(flowId).toBeDefined();
        const gbps = ((o.windowBytes.get(flowId!) ?? 0) * 8) / windowS / 1e9;
        expect(Math.abs(gbps - f.rateGbps!) / f.rateGbps!).toBeLessThan(0.02);
      }
    },
  );

  test.prop([hotSpotArb], { numRuns: 8 })(
    "the same scenario and seed give the same counters and deliveries",
    (c) => {
      const a = runCase(c);
      const b = runCase(c);
      expect(b.counters).toEqual(a.counters);
      expect(b.rates).toEqual(a.rates);
      expect(b.trace).toEqual(a.trace);
    },
  );
});
