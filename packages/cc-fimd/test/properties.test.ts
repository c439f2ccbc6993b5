/**
 * Santos et al.'s scheme on whole credit fabrics, set up as the santos scenarios are
 * (scenarios/santos/spreading-input.yaml: 10 Gb/s links of 20 ns, 2048-byte packets of 2022
 * payload bytes and a 26-byte header, 8 KB input buffers that hold 4 of them, credit flow
 * control, virtual cut-through). Congestion control must not break the fabric's semantics
 * (docs/model.md, "Invariants"): nothing is dropped, no buffer overflows, every data packet a
 * host started is delivered once or still in the network, every ACK is consumed once or still
 * in the network; rates stay within [R_min, R_max]; a flow never has more than its window of
 * packets unacknowledged. Without marking nothing is marked and every source keeps R_max. The
 * same scenario and seed give the same run.
 */
import { usToPs } from "@cclab/core-des";
import { DATA_KIND, type Topology } from "@cclab/fabric";
import { bufferOverflowViolation, Network, type NetworkOptions } from "@cclab/network";
import { parkingLot, singleSwitch } from "@cclab/topologies";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { type FimdParams, fimdCc, MARKINGS, params, RESPONSE_NAMES, ROOTS } from "../src/index.js";

const LINK_GBPS = 10;

/** The switches and hosts of the santos scenarios; the queueing is chosen per case. */
const options = (queueing: "1q" | "voq-port"): NetworkOptions => ({
  flowControl: "credit",
  switch: {
    queueing,
    switching: "vct",
    buffer: { model: "partitioned", bytesPerPortVl: 8192 },
  },
  host: { mtuBytes: 2022, headerBytes: 26 },
});

/** One greedy message (it outlasts the run) from `src` to `dst`, from `startNs`. */
interface Flow {
  readonly src: number;
  readonly dst: number;
  readonly startNs: number;
}

interface Case {
  readonly topology: Topology;
  readonly queueing: "1q" | "voq-port";
  readonly seed: number;
  readonly cc: FimdParams;
  readonly flows: readonly Flow[];
  readonly durationUs: number;
}

/** Two switches with 2–6 hosts each, or one switch with 3–8 hosts. */
const topologyArb: fc.Arbitrary<Topology> = fc.oneof(
  fc
    .tuple(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 2, max: 6 }))
    .map(([a, b]) =>
      parkingLot({ switches: 2, hostsPerSwitch: [a, b], rateGbps: LINK_GBPS, latencyNs: 20 }),
    ),
  fc
    .integer({ min: 3, max: 8 })
    .map((hosts) => singleSwitch({ hosts, rateGbps: LINK_GBPS, latencyNs: 20 })),
);

const ccRecord = {
  marking: fc.constantFrom(...MARKINGS),
  roots: fc.constantFrom(...ROOTS),
  response: fc.constantFrom(...RESPONSE_NAMES),
  windowPackets: fc.constantFrom(1, 2, null),
  outputThresholdPackets: fc.integer({ min: 2, max: 16 }),
  minRateFraction: fc.double({ min: 0.005, max: 0.1, noNaN: true }),
  m: fc.double({ min: 1.5, max: 4, noNaN: true }),
};

const MAX_HOSTS = 12;

/**
 * `minSenders`–5 greedy senders to one host (fewer on small fabrics), each from a random time,
 * and maybe one more flow between two other hosts (its source may also be a hot-spot sender).
 */
function hotSpotArb(
  ccArb: fc.Arbitrary<FimdParams>,
  minSenders: number,
  durationsUs: readonly number[],
): fc.Arbitrary<Case> {
  return fc
    .record({
      topology: topologyArb,
      queueing: fc.constantFrom("1q" as const, "voq-port" as const),
      seed: fc.integer({ min: 1, max: 1_000_000 }),
      cc: ccArb,
      hot: fc.nat(),
      senders: fc.integer({ min: minSenders, max: 5 }),
      order: fc.array(fc.nat(), { minLength: MAX_HOSTS, maxLength: MAX_HOSTS }),
      startsNs: fc.array(fc.integer({ min: 0, max: 50_000 }), { minLength: 6, maxLength: 6 }),
      other: fc.option(fc.tuple(fc.nat(), fc.nat()), { nil: undefined }),
      durationUs: fc.constantFrom(...durationsUs),
    })
    .map((r) => {
      const hosts = r.topology.fabric.hosts.length;
      const dst = r.hot % hosts;
      // The other hosts, in a random order; the first `senders` of them send.
      const others = Array.from({ length: hosts - 1 }, (_, i) => (dst + 1 + i) % hosts)
        .map((h, i) => ({ h, key: r.order[i]! }))
        .sort((a, b) => a.key - b.key || a.h - b.h)
        .map((x) => x.h);
      const flows: Flow[] = others
        .slice(0, Math.min(r.senders, hosts - 1))
        .map((src, i) => ({ src, dst, startNs: r.startsNs[i]! }));
      if (r.other !== undefined) {
        const src = others[r.other[0] % others.length]!;
        const rest = others.filter((h) => h !== src);
        const otherDst = rest[r.other[1] % rest.length]!;
        flows.push({ src, dst: otherDst, startNs: r.startsNs[5]! });
      }
      return {
        topology: r.topology,
        queueing: r.queueing,
        seed: r.seed,
        cc: r.cc,
        flows,
        durationUs: r.durationUs,
      };
    });
}

interface Outcome {
  readonly violation: string | undefined;
  readonly counters: Record<string, number>;
  readonly drops: number;
  /** Rates sampled during the run, Gb/s. */
  readonly rates: number[];
  /** Most packets any flow had unacknowledged at once. */
  readonly maxOutstanding: number;
  /** Deliveries in order: time, message and packet, and whether it arrived marked. */
  readonly trace: string[];
}

function runCase(c: Case): Outcome {
  const net = new Network(c.topology, {
    ...options(c.queueing),
    seed: c.seed,
    cc: fimdCc(c.cc),
  });
  for (const f of c.flows) {
    net.addMessage(f.src, { dstHost: f.dst, bytes: 1e9, startPs: f.startNs * 1000 });
  }
  const packets = net.packets;
  const ackKind = packets.kindCodeOf("ack");
  const window = c.cc.windowPackets;
  let violation: string | undefined;
  // Conservation: every data packet a host starts and every ACK a destination sends is
  // consumed by a host once, or is still in the network.
  const inFlight = new Set<string>();
  const delivered = new Set<string>();
  // Per flow: data packets started and not yet acknowledged (ACKs consumed at the source).
  const outstanding = new Map<number, number>();
  let maxOutstanding = 0;
  let started = 0;
  let consumed = 0;
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
        const flowId = packets.flowId[p]!;
        const n = (outstanding.get(flowId) ?? 0) + 1;
        outstanding.set(flowId, n);
        maxOutstanding = Math.max(maxOutstanding, n);
        if (window !== null && n > window) {
          violation ??= `flow ${flowId} at ${net.nowPs} ps: ${n} packets unacknowledged, window ${window}`;
        }
      },
      (p) => {
        consumed++;
        const kind = packets.kindCode[p];
        if (kind === ackKind) {
          const flowId = packets.flowId[p]!;
          const n = (outstanding.get(flowId) ?? 0) - 1;
          if (n < 0) violation ??= `flow ${flowId}: an ACK with no packet unacknowledged`;
          if (packets.dstHost[p] !== host.index) {
            violation ??= `ACK of flow ${flowId} consumed at host ${host.index}, not its source`;
          }
          outstanding.set(flowId, n);
          return;
        }
        if (kind !== DATA_KIND) return;
        const k = key(p);
        if (!inFlight.delete(k)) violation ??= `packet ${k} consumed but not in flight`;
        delivered.add(k);
        trace.push(`${net.nowPs}:${k}:${packets.fecn[p]}`);
      },
    );
  }
  const maxRate = LINK_GBPS;
  const minRate = c.cc.minRateFraction * maxRate;
  const rates: number[] = [];
  const sample = () =>
    net.sampleCcFlows((flowId, variable, value) => {
      if (variable !== "rateGbps") return;
      rates.push(value);
      if (!(value >= minRate * (1 - 1e-9) && value <= maxRate * (1 + 1e-9))) {
        violation ??= `flow ${flowId} at ${net.nowPs} ps: rate ${value} Gb/s outside [${minRate}, ${maxRate}]`;
      }
    });
  const endPs = usToPs(c.durationUs);
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
  const acksSent = counters.acksSent ?? 0;
  if (violation === undefined && started + acksSent - consumed !== packets.live) {
    violation = `${started} data packets + ${acksSent} ACKs − ${consumed} consumed ≠ ${packets.live} in the network`;
  }
  if (violation === undefined && started - delivered.size !== inFlight.size) {
    violation = `${started} data packets started, ${delivered.size} delivered, ${inFlight.size} in flight`;
  }
  return {
    violation,
    counters,
    drops: net.switches.reduce((s, sw) => s + sw.droppedPackets, 0),
    rates,
    maxOutstanding,
    trace,
  };
}

/** The counters every run must keep consistent. */
function expectConsistent(o: Outcome): void {
  expect(o.violation).toBeUndefined();
  expect(o.drops).toBe(0);
  expect(o.rates.length).toBeGreaterThan(0);
  const k = o.counters;
  expect(k.acksSent).toBeGreaterThan(0);
  expect(k.acksReceived).toBeLessThanOrEqual(k.acksSent!);
  expect(k.marksReceived).toBeLessThanOrEqual(k.marksEchoed!);
  expect(k.marksEchoed).toBeLessThanOrEqual(k.packetsMarked!);
  expect(k.rateDecreases).toBe(k.marksReceived);
  expect(k.rateIncreases! + k.rateDecreases!).toBe(k.acksReceived);
}

const anyCcArb = fc.record(ccRecord).map((r) => params.parse(r));
const casesArb = hotSpotArb(anyCcArb, 2, [300, 800]);

/**
 * Marking on a hot spot of 3–5 senders: rate control alone (no window), so a host's greedy
 * flow can fill its switch input (with a window of one it never could, and neither
 * input-triggered nor naive marking would fire; scenarios/santos/spreading-input.yaml).
 */
const markingCasesArb = hotSpotArb(
  fc
    .record({
      ...ccRecord,
      marking: fc.constantFrom("naive" as const, "input" as const, "input-output" as const),
      windowPackets: fc.constant(null),
    })
    .map((r) => params.parse(r)),
  3,
  [300, 500],
);

/** Runs of the marking property, and those in which packets were marked and sources slowed. */
const tally = { runs: 0, marked: 0, slowed: 0 };

describe("Santos et al.'s marking and sources on credit fabrics", () => {
  test.prop([casesArb], { numRuns: 40 })(
    "hot spots: nothing dropped, every packet delivered once or in flight, rates within [R_min, R_max], at most a window unacknowledged",
    (c) => {
      const o = runCase(c);
      expectConsistent(o);
      if (c.cc.windowPackets !== null) {
        expect(o.maxOutstanding).toBeLessThanOrEqual(c.cc.windowPackets);
      }
    },
  );

  test.prop([casesArb.map((c) => ({ ...c, cc: { ...c.cc, marking: "none" as const } }))], {
    numRuns: 15,
  })("without marking: nothing is marked and every source keeps R_max", (c) => {
    const o = runCase(c);
    expectConsistent(o);
    const k = o.counters;
    expect(k.packetsMarked).toBe(0);
    expect(k.inputTriggers).toBe(0);
    expect(k.outputTriggers).toBe(0);
    expect(k.marksEchoed).toBe(0);
    expect(k.marksReceived).toBe(0);
    expect(o.rates.every((r) => r === LINK_GBPS)).toBe(true);
  });

  test.prop([markingCasesArb], { numRuns: 25 })(
    "hot spots of 3 or more greedy sources with marking: the invariants hold",
    (c) => {
      const o = runCase(c);
      expectConsistent(o);
      if (c.cc.marking !== "input-output") expect(o.counters.outputTriggers).toBe(0);
      tally.runs++;
      if (o.counters.packetsMarked! > 0) tally.marked++;
      if (o.counters.rateDecreases! > 0 && o.rates.some((r) => r < LINK_GBPS)) tally.slowed++;
    },
  );

  it("those hot spots mostly marked packets and slowed sources (the property exercised the scheme)", () => {
    expect(tally.runs).toBeGreaterThan(0);
    expect(tally.marked / tally.runs).toBeGreaterThan(0.8);
    expect(tally.slowed / tally.runs).toBeGreaterThan(0.8);
  });

  test.prop([casesArb], { numRuns: 8 })(
    "the same scenario and seed give the same counters, rates and deliveries",
    (c) => {
      const a = runCase(c);
      const b = runCase(c);
      expect(a.trace.length).toBeGreaterThan(0);
      expect(b.counters).toEqual(a.counters);
      expect(b.rates).toEqual(a.rates);
      expect(b.trace).toEqual(a.trace);
    },
  );
});
