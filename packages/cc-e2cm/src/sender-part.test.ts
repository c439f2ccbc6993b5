import { createRng, serializationPs, type TimePs, usToPs } from "@cclab/core-des";
import type { FlowGate, PacketId } from "@cclab/fabric";
import { testHostContext } from "@cclab/fabric/testing";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { BcnType, COLUMN } from "./frames.js";
import { gains, params } from "./params.js";
import { createSenderPart, senderPartFactory } from "./sender-part.js";

const C = 10; // line rate, Gb/s
const FLOW = 7;
const FRAME = 1500;

/** Host 0's reaction point with `input`'s parameters on a 10 Gb/s uplink, flow 7 open. */
function rp(input: Record<string, unknown>, seed = 1) {
  const p = params.parse(input);
  let gatesChanged = 0;
  const context = testHostContext({
    uplinkRateGbps: C,
    rng: createRng(seed).split("host/0/cc"),
    gatesChanged: () => gatesChanged++,
  });
  const { scheduler, packets } = context;
  const part = createSenderPart(p, context);
  const gate: FlowGate = part.openFlow({ flowId: FLOW, srcHost: 0, dstHost: 1, sl: 0 });
  const type = packets.column(COLUMN.type, Uint8Array);
  const cpid = packets.column(COLUMN.cpid, Int32Array);
  const time = packets.column(COLUMN.timePs, Float64Array);
  const qoff = packets.column(COLUMN.qoffBytes, Float64Array);
  const qdelta = packets.column(COLUMN.qdeltaBytes, Float64Array);
  const throughput = packets.column(COLUMN.throughputBytesPerS, Float64Array);
  const state = () => {
    const v = new Map<string, number>();
    part.sampleFlows?.((flowId, name, value) => {
      if (flowId === FLOW) v.set(name, value);
    });
    return { rate: v.get("rateGbps")!, pathQ: v.get("pathQueueBytes") };
  };
  /** A BCN frame of `kind` from congestion point `from` for the flow (or `flowId`). */
  const bcn = (kind: number, from: number, qoffBytes = 0, qdeltaBytes = 0, flowId = FLOW) => {
    const id = packets.create({ kind: "bcn", sizeBytes: 64, flowId, srcHost: 1, dstHost: 0 });
    type.values[id] = kind;
    cpid.values[id] = from;
    qoff.values[id] = qoffBytes;
    qdelta.values[id] = qdeltaBytes;
    part.onControl?.(id);
    packets.free(id);
  };
  return {
    p,
    g: gains(p, C),
    part,
    gate,
    packets,
    scheduler,
    state,
    rate: () => state().rate,
    counters: () => part.counters?.() ?? {},
    gatesChanged: () => gatesChanged,
    bcn,
    /** A negative BCN (Qoff, Qdelta) from `from`. */
    negative: (from: number, qoffBytes: number, qdeltaBytes: number) =>
      bcn(BcnType.bcn, from, qoffBytes, qdeltaBytes),
    /** A returned probe: forward latency and the destination's throughput. */
    probe: (latencyPs: number, bytesPerS: number) => {
      const id = packets.create({ kind: "probe", sizeBytes: 64, flowId: FLOW, dstHost: 0 });
      type.values[id] = BcnType.probeReverse;
      time.values[id] = latencyPs;
      throughput.values[id] = bytesPerS;
      part.onControl?.(id);
      packets.free(id);
    },
    runTo: (atPs: TimePs) => scheduler.run({ untilPs: atPs }),
    /** The host starts a data frame of the flow now; what the gate wrote on it. */
    send: (sizeBytes = FRAME) => {
      const id: PacketId = packets.create({ sizeBytes, flowId: FLOW, srcHost: 0, dstHost: 1 });
      gate.onSent?.(id);
      const written = { cpid: cpid.values[id]!, type: type.values[id]!, timePs: time.values[id]! };
      packets.free(id);
      return written;
    },
  };
}

// Saturated feedback: Qoff −Qeq, Qdelta 2·Qeq → Fb = −(1 + 2W)·Qeq; the opposite for positive.
const SAT_NEG = [-75_000, 150_000] as const;
const SAT_POS = [75_000, -150_000] as const;

describe("reaction point: BCN (spec 2.4)", () => {
  it("the first negative BCN makes a limiter at line rate and cuts it by (1 + Gd·Fb)", () => {
    const h = rp({});
    expect(h.rate()).toBe(C);
    expect(h.counters().limitersActive).toBe(0);
    h.negative(42, 10_000, 10_000); // Fb = 10 000 − 2·10 000 = −10 000
    expect(h.rate()).toBeCloseTo(C * (1 - h.g.gdPerByte * 10_000), 12);
    expect(h.rate()).toBeCloseTo(C * (1 - 10_000 / 750_000), 12);
    expect(h.counters()).toMatchObject({
      bcnReceived: 1,
      rateCuts: 1,
      limitersCreated: 1,
      limitersActive: 1,
    });
  });

  it("a saturated negative BCN halves the rate with the reference gains; BCN_MAX too", () => {
    const h = rp({});
    h.negative(42, ...SAT_NEG);
    expect(h.rate()).toBeCloseTo(C / 2, 12);
    h.negative(42, -1e9, 1e9); // beyond saturation: the same
    expect(h.rate()).toBeCloseTo(C / 4, 12);
    // BCN_MAX: Fb = −(1 + 2W)·Qeq whatever its fields say.
    h.bcn(BcnType.bcnMax, 42, 75_000, -150_000);
    expect(h.rate()).toBeCloseTo(C / 8, 12);
    expect(h.counters()).toMatchObject({ rateCuts: 3, limitersCreated: 1, limitersActive: 1 });
  });

  it("never cuts below minRate", () => {
    const h = rp({ minRateMbps: 700 });
    for (let i = 0; i < 10; i++) h.negative(42, ...SAT_NEG);
    expect(h.rate()).toBe(0.7);
    const g = rp({ gdScale: 3 }); // a gain that would cut below 0
    g.negative(42, ...SAT_NEG);
    expect(g.rate()).toBe(0.001);
  });

  it("a positive BCN raises a limited flow by Gi·Fb·Ru and asks the host's gates again", () => {
    const h = rp({});
    h.negative(42, ...SAT_NEG); // 5 Gb/s
    expect(h.gatesChanged()).toBe(0);
    h.bcn(BcnType.bcn, 42, 1_000, 0); // Fb = 1000
    expect(h.rate()).toBeCloseTo(5 + (h.g.giPerByte * 1_000 * 1) / 1000, 12);
    h.bcn(BcnType.bcn, 42, ...SAT_POS); // saturated: + 0.005 · 10 Gb/s
    expect(h.rate()).toBeCloseTo(5 + (h.g.giPerByte * 1_000) / 1000 + 0.05, 12);
    expect(h.gatesChanged()).toBe(2);
    expect(h.counters()).toMatchObject({ rateIncreases: 2, limitersActive: 1 });
  });

  it("ignores positive BCN for a flow without a limiter, and Fb = 0", () => {
    const h = rp({});
    h.bcn(BcnType.bcn, 42, ...SAT_POS);
    h.bcn(BcnType.bcn, 42, 2_000, 1_000); // Fb = 0
    expect(h.rate()).toBe(C);
    expect(h.counters()).toMatchObject({
      bcnReceived: 2,
      rateIncreases: 0,
      rateCuts: 0,
      limitersCreated: 0,
    });
    expect(h.send().cpid).toBe(0);
  });

  it("back at line rate the limiter is released: no more limiters, frames no longer tagged", () => {
    const h = rp({});
    h.negative(42, 1_000, 1_000); // Fb −1000: 9.987 Gb/s
    expect(h.send().cpid).toBe(42);
    h.bcn(BcnType.bcn, 42, ...SAT_POS); // + 50 Mb/s: past line rate
    expect(h.rate()).toBe(C);
    expect(h.counters()).toMatchObject({
      limitersCreated: 1,
      limitersReleased: 1,
      limitersActive: 0,
    });
    expect(h.send().cpid).toBe(0);
    expect(h.gate.nextSendPs(h.scheduler.nowPs)).toBe(h.scheduler.nowPs);
    // A later positive BCN does nothing; a negative one makes a new limiter.
    h.bcn(BcnType.bcn, 42, ...SAT_POS);
    expect(h.counters().rateIncreases).toBe(1);
    h.negative(43, ...SAT_NEG);
    expect(h.rate()).toBeCloseTo(C / 2, 12);
    expect(h.counters()).toMatchObject({ limitersCreated: 2, limitersActive: 1 });
    expect(h.send().cpid).toBe(43);
  });

  it("tags the frames of a limited flow with the congestion point of the last negative BCN", () => {
    const h = rp({ mode: "bcn" });
    h.negative(42, ...SAT_NEG);
    expect(h.send().cpid).toBe(42);
    h.negative(99, -1_000, 0);
    expect(h.send().cpid).toBe(99);
    h.bcn(BcnType.bcn, 42, 1_000, 0); // positive, from another point: no new association
    expect(h.send().cpid).toBe(99);
    h.bcn(BcnType.bcnMax, 17);
    expect(h.send().cpid).toBe(17);
  });

  it("spaces the frames of a limited flow at its rate; an unlimited flow only by its link", () => {
    const h = rp({});
    h.runTo(1_000);
    h.send();
    expect(h.gate.nextSendPs(1_000)).toBe(1_000);
    h.negative(42, ...SAT_NEG); // 5 Gb/s
    expect(h.gate.nextSendPs(1_000)).toBe(1_000 + serializationPs(FRAME, 5));
    h.runTo(1_000 + serializationPs(FRAME, 5));
    h.send(500);
    const t = h.scheduler.nowPs;
    expect(h.gate.nextSendPs(t)).toBe(t + serializationPs(500, 5));
    // Asking changes nothing.
    expect(h.gate.nextSendPs(t + 1)).toBe(t + serializationPs(500, 5));
  });

  test.prop(
    [
      fc.array(
        fc.tuple(
          fc.constantFrom(BcnType.bcn, BcnType.bcnMax),
          fc.integer({ min: -200_000, max: 200_000 }),
          fc.integer({ min: -400_000, max: 400_000 }),
        ),
        { maxLength: 80 },
      ),
      fc.constantFrom("reference" as const, "orientative-ig" as const, "orientative-og" as const),
    ],
    { numRuns: 100 },
  )(
    "keeps the rate within [minRate, line rate] and limitersActive = created − released",
    (frames, preset) => {
      const h = rp({ preset, mode: "bcn" });
      for (const [kind, q, d] of frames) {
        h.bcn(kind, 5, q, d);
        const rate = h.rate();
        expect(rate).toBeGreaterThanOrEqual(h.p.minRateMbps / 1000);
        expect(rate).toBeLessThanOrEqual(C);
        const c = h.counters();
        expect(c.limitersActive).toBe(c.limitersCreated! - c.limitersReleased!);
        expect(c.limitersActive === 1).toBe(rate < C || h.send().cpid !== 0);
      }
    },
  );
});

describe("reaction point: BCN(0,0) (spec 2.4.5)", () => {
  test.prop([fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom(20, 100)], { numRuns: 30 })(
    "stops the flow for at most bcnZeroBackoffUs, then restarts at minRate",
    (seed, backoffUs) => {
      const h = rp({ mode: "bcn", bcnZeroBackoffUs: backoffUs }, seed);
      const t0 = usToPs(10);
      h.runTo(t0);
      h.send(); // the frame the switch sampled
      const t1 = t0 + usToPs(3);
      h.runTo(t1);
      h.bcn(BcnType.bcnZero, 42);
      expect(h.rate()).toBe(0.001);
      expect(h.counters()).toMatchObject({ limitersActive: 1, rateCuts: 1 });
      const restart = h.gate.nextSendPs(t1);
      expect(Number.isInteger(restart)).toBe(true); // a time the host can schedule
      expect(restart).toBeGreaterThanOrEqual(t1);
      expect(restart).toBeLessThanOrEqual(t1 + usToPs(backoffUs));
      expect(h.gatesChanged()).toBe(1); // the stop may end before the time the gate last gave
      h.runTo(restart);
      const sent = h.send();
      expect(sent.cpid).toBe(42);
      const now = h.scheduler.nowPs;
      expect(h.gate.nextSendPs(now)).toBe(now + serializationPs(FRAME, 0.001));
    },
  );

  it("draws the stop at random from [0, bcnZeroBackoffUs]", () => {
    const stops: number[] = [];
    for (let seed = 1; seed <= 200; seed++) {
      const h = rp({ mode: "bcn" }, seed);
      h.bcn(BcnType.bcnZero, 42);
      stops.push(h.gate.nextSendPs(0));
    }
    const max = usToPs(100);
    expect(Math.min(...stops)).toBeLessThan(0.1 * max);
    expect(Math.max(...stops)).toBeGreaterThan(0.9 * max);
    expect(Math.max(...stops)).toBeLessThanOrEqual(max);
  });
});

describe("reaction point: E2CM probes (seed L138–196, spec 3.2–3.4)", () => {
  it("in mode e2cm the first frame after limiting is a probe, then one per probeEveryBytes", () => {
    const h = rp({ mode: "e2cm", probeEveryBytes: 75_000 });
    expect(h.send()).toEqual({ cpid: 0, type: 0, timePs: 0 }); // not limited: no probe
    h.negative(42, ...SAT_NEG);
    const probes: number[] = [];
    for (let k = 1; k <= 160; k++) {
      h.runTo(usToPs(k));
      const sent = h.send();
      expect(sent.cpid).toBe(42);
      if (sent.type === BcnType.probeForward) {
        expect(sent.timePs).toBe(usToPs(k));
        probes.push(k);
      } else {
        expect(sent).toEqual({ cpid: 42, type: BcnType.none, timePs: 0 });
      }
    }
    // 75 000 B = 50 frames of 1500 B between two probes.
    expect(probes).toEqual([1, 51, 101, 151]);
    expect(h.counters().probesSent).toBe(4);
  });

  it("a new limiter probes at once again; a released one stops probing", () => {
    const h = rp({ probeEveryBytes: 15_000 });
    h.negative(42, -1_000, 0);
    expect(h.send().type).toBe(BcnType.probeForward);
    expect(h.send().type).toBe(BcnType.none);
    h.bcn(BcnType.bcn, 42, ...SAT_POS); // released
    for (let i = 0; i < 20; i++) expect(h.send().type).toBe(BcnType.none);
    h.negative(42, -1_000, 0);
    expect(h.send().type).toBe(BcnType.probeForward);
    expect(h.counters().probesSent).toBe(2);
  });

  it("mode bcn sends no probes", () => {
    const h = rp({ mode: "bcn", probeEveryBytes: 1_500 });
    h.negative(42, ...SAT_NEG);
    for (let i = 0; i < 100; i++) expect(h.send().type).toBe(BcnType.none);
    expect(h.counters().probesSent).toBe(0);
  });

  it("applies the slide's per-flow law: L0 = min latency, Q = R·(L − L0), BCN_MAX above Qmax", () => {
    const h = rp({}); // reference: flow Qeq 15 KB, Qmax 56 KB, W 2, Gd_f 2.5/375 000, Gi_f 0.025·Gi0
    const gd = 2.5 / 375_000;
    const gi = (0.025 * (10e9 / 1e6)) / 375_000; // per byte of Fb, in units of Ru = 1 Mb/s
    const up = (fb: number) => (gi * fb * 1) / 1000; // Gb/s
    h.negative(42, ...SAT_NEG);
    let rate = C / 2;
    expect(h.rate()).toBeCloseTo(rate, 12);

    // 1. The first probe: L = 10 µs, throughput unknown. L0 = 10 µs; nothing else.
    h.probe(usToPs(10), -1);
    expect(h.rate()).toBeCloseTo(rate, 12);
    expect(h.state().pathQ).toBe(0);

    // 2. L = 12 µs at 1 GB/s: Q = 1e9 · 2e-6 = 2000 B; dQ = 2000; Qoff = 13 000;
    //    Fb = 13 000 − 2·2000 = 9000 > 0: + Gi_f · 9000 · Ru.
    h.probe(usToPs(12), 1e9);
    rate += up(9_000);
    expect(h.state().pathQ).toBeCloseTo(2_000, 6);
    expect(h.rate()).toBeCloseTo(rate, 12);
    expect(rate).toBeCloseTo(5.006, 12);

    // 3. L = 40 µs: Q = 30 000; dQ = 28 000; Qoff = −15 000 (saturated);
    //    Fb = −15 000 − 56 000 = −71 000: × (1 − Gd_f · 71 000).
    h.probe(usToPs(40), 1e9);
    rate *= 1 - gd * 71_000;
    expect(h.state().pathQ).toBeCloseTo(30_000, 6);
    expect(h.rate()).toBeCloseTo(rate, 12);

    // 4. L = 8 µs: a new L0, Q = 0; dQ = −30 000 (saturated at −2·Qeq_f); Qoff = 15 000;
    //    Fb = 15 000 + 60 000 = 75 000: + Gi_f · 75 000 · Ru (= 50 Mb/s, saturated).
    h.probe(usToPs(8), 1e9);
    rate += up(75_000);
    expect(up(75_000)).toBeCloseTo(0.05, 12);
    expect(h.rate()).toBeCloseTo(rate, 12);

    // 5. L = 78 µs: Q = 70 000 > Qmax_f = 56 000: Fb = −(1 + 2W)·15 000 = −75 000: halves.
    h.probe(usToPs(78), 1e9);
    rate *= 1 - gd * 75_000;
    expect(h.rate()).toBeCloseTo(rate, 12);
    expect(gd * 75_000).toBeCloseTo(0.5, 12);

    // 6. Qold is the last probe's Q (70 000, stored on BCN_MAX too). L = 22 µs at 1 GB/s:
    //    Q = 14 000; dQ = −56 000 → −30 000; Qoff = 1000; Fb = 1000 + 60 000 = 61 000.
    h.probe(usToPs(22), 1e9);
    rate += up(61_000);
    expect(h.rate()).toBeCloseTo(rate, 12);

    // 7. No data between two probes (throughput 0) or unknown (−1): no change.
    h.probe(usToPs(30), 0);
    h.probe(usToPs(30), -1);
    expect(h.rate()).toBeCloseTo(rate, 12);

    // 8. Q = Qeq_f exactly with dQ = 0 after a probe at the same Q: Fb = 0, no change.
    h.probe(usToPs(8 + 15), 1e9); // Q = 15 000; dQ = 1000; Qoff 0; Fb = −2000
    rate *= 1 - gd * 2_000;
    h.probe(usToPs(8 + 15), 1e9); // Q = 15 000, dQ 0, Qoff 0: Fb = 0
    expect(h.rate()).toBeCloseTo(rate, 12);
    expect(h.counters()).toMatchObject({ probesReceived: 10, limitersActive: 1 });
    // Probes never change the limiter's congestion point (L143).
    expect(h.send().cpid).toBe(42);
  });

  it("a flow without a limiter only learns its flight time from probes", () => {
    const h = rp({});
    h.probe(usToPs(5), 1e9); // not limited: L0 = 5 µs, nothing else
    expect(h.rate()).toBe(C);
    expect(h.counters()).toMatchObject({ probesReceived: 1, limitersCreated: 0 });
    h.negative(42, ...SAT_NEG);
    h.probe(usToPs(7), 1e9); // Q = 2000 from the L0 learnt before: Fb = 13 000 − 4000
    expect(h.state().pathQ).toBeCloseTo(2_000, 6);
    expect(h.rate()).toBeCloseTo(5 + (h.g.flowGiPerByte * 9_000) / 1000, 12);
  });

  it("a probe that brings the flow back to line rate releases its limiter", () => {
    const h = rp({});
    h.negative(42, -100, 0); // 9.9987 Gb/s
    h.probe(usToPs(5), -1);
    h.probe(usToPs(5), 1e9); // Q = 0, dQ 0: Fb = 15 000 → + 10 Mb/s
    expect(h.rate()).toBe(C);
    expect(h.counters()).toMatchObject({ limitersReleased: 1, limitersActive: 0 });
    expect(h.send()).toEqual({ cpid: 0, type: 0, timePs: 0 });
  });

  it("mode bcn ignores returned probes", () => {
    const h = rp({ mode: "bcn" });
    h.negative(42, ...SAT_NEG);
    h.probe(usToPs(10), -1);
    h.probe(usToPs(100), 1e9); // would be BCN_MAX per flow
    expect(h.rate()).toBeCloseTo(C / 2, 12);
    expect(h.counters().probesReceived).toBe(0);
    expect(h.state().pathQ).toBeUndefined();
  });
});

describe("sender part", () => {
  it("keeps a reaction point per flow and ignores control packets of flows it does not know", () => {
    const h = rp({});
    const other = h.part.openFlow({ flowId: 8, srcHost: 0, dstHost: 2, sl: 0 });
    h.bcn(BcnType.bcn, 42, ...SAT_NEG, 8);
    h.bcn(BcnType.bcn, 42, ...SAT_NEG, 9); // no such flow
    expect(h.rate()).toBe(C);
    expect(other.nextSendPs(0)).toBeLessThanOrEqual(0); // limited, nothing sent yet
    const rates = new Map<number, number>();
    h.part.sampleFlows?.((flowId, name, value) => {
      if (name === "rateGbps") rates.set(flowId, value);
    });
    expect(rates).toEqual(
      new Map([
        [FLOW, C],
        [8, C / 2],
      ]),
    );
    expect(h.counters()).toMatchObject({ bcnReceived: 1, limitersActive: 1 });
  });

  it("ignores other control packets (ACKs, forward probes)", () => {
    const h = rp({});
    h.negative(42, ...SAT_NEG);
    const ack = h.packets.create({ kind: "ack", flowId: FLOW, sizeBytes: 64 });
    h.part.onControl?.(ack);
    const fwd = h.packets.create({ kind: "probe", flowId: FLOW, sizeBytes: 64 });
    h.packets.column(COLUMN.type, Uint8Array).values[fwd] = BcnType.probeForward;
    h.part.onControl?.(fwd);
    expect(h.counters()).toMatchObject({ bcnReceived: 1, probesReceived: 0 });
  });

  it("the factory reads the BCN fields and is named for the mode", () => {
    const e2cm = senderPartFactory(params.parse({}));
    const bcn = senderPartFactory(params.parse({ mode: "bcn" }));
    expect(e2cm.specVersion).toBe("^3.0.0");
    expect(e2cm.reads).toContain(COLUMN.qoffBytes);
    expect(e2cm.name).not.toBe(bcn.name);
  });
});

describe("reaction point: limiters per congestion point (BCN)", () => {
  /** Host 0 with flows 7 and 8 (to hosts 1 and 2) and limiters per congestion point. */
  function two() {
    const p = params.parse({ mode: "bcn", rateLimiters: "per-congestion-point" });
    const context = testHostContext({
      uplinkRateGbps: C,
      rng: createRng(1).split("host/0/cc"),
      gatesChanged: () => {},
    });
    const { packets, scheduler } = context;
    const part = createSenderPart(p, context);
    const gates = new Map<number, FlowGate>([
      [7, part.openFlow({ flowId: 7, srcHost: 0, dstHost: 1, sl: 0 })],
      [8, part.openFlow({ flowId: 8, srcHost: 0, dstHost: 2, sl: 0 })],
    ]);
    const type = packets.column(COLUMN.type, Uint8Array);
    const cpid = packets.column(COLUMN.cpid, Int32Array);
    const qoff = packets.column(COLUMN.qoffBytes, Float64Array);
    const qdelta = packets.column(COLUMN.qdeltaBytes, Float64Array);
    const bcn = (flowId: number, from: number, qoffBytes: number, qdeltaBytes: number) => {
      const id = packets.create({ kind: "bcn", sizeBytes: 64, flowId, srcHost: 9, dstHost: 0 });
      type.values[id] = BcnType.bcn;
      cpid.values[id] = from;
      qoff.values[id] = qoffBytes;
      qdelta.values[id] = qdeltaBytes;
      part.onControl?.(id);
      packets.free(id);
    };
    const rates = () => {
      const v = new Map<number, number>();
      part.sampleFlows?.((flowId, name, value) => {
        if (name === "rateGbps") v.set(flowId, value);
      });
      return [v.get(7)!, v.get(8)!];
    };
    const send = (flowId: number) => {
      const id = packets.create({ sizeBytes: FRAME, flowId, srcHost: 0, dstHost: 1 });
      gates.get(flowId)!.onSent?.(id);
      const tag = cpid.values[id]!;
      packets.free(id);
      return tag;
    };
    return { part, gates, scheduler, bcn, rates, send, counters: () => part.counters?.() ?? {} };
  }

  it("flows slowed by one point share its limiter: one rate, frames spaced across both", () => {
    const h = two();
    h.bcn(7, 42, ...SAT_NEG);
    h.bcn(8, 42, ...SAT_NEG);
    // One limiter, cut twice: a quarter of line rate, for both flows.
    expect(h.counters()).toMatchObject({ limitersCreated: 1, limitersActive: 1, rateCuts: 2 });
    expect(h.rates()).toEqual([C / 4, C / 4]);
    expect(h.send(7)).toBe(42);
    // Flow 8's next frame waits for flow 7's to leave at the shared rate.
    expect(h.gates.get(8)!.nextSendPs(0)).toBe(serializationPs(FRAME, C / 4));
  });

  it("a negative BCN from another point moves the flow; a positive one raises the point that sent it", () => {
    const h = two();
    h.bcn(7, 42, ...SAT_NEG);
    h.bcn(8, 42, ...SAT_NEG);
    h.bcn(8, 43, ...SAT_NEG);
    expect(h.counters()).toMatchObject({ limitersCreated: 2, limitersActive: 2 });
    expect(h.rates()).toEqual([C / 4, C / 2]);
    expect([h.send(7), h.send(8)]).toEqual([42, 43]);
    // Positive BCNs from 42 (to a frame of flow 8 tagged before it moved) raise 42's limiter
    // until it reaches line rate and is released: flow 7 is free, flow 8 still at 43's rate.
    for (let i = 0; i < 1000 && h.rates()[0]! < C; i++) h.bcn(8, 42, ...SAT_POS);
    expect(h.rates()).toEqual([C, C / 2]);
    expect(h.counters()).toMatchObject({ limitersReleased: 1, limitersActive: 1 });
    expect([h.send(7), h.send(8)]).toEqual([0, 43]);
  });

  it("a limiter whose last flow moves away is released", () => {
    const h = two();
    h.bcn(7, 42, ...SAT_NEG);
    h.bcn(7, 43, ...SAT_NEG);
    expect(h.counters()).toMatchObject({
      limitersCreated: 2,
      limitersReleased: 1,
      limitersActive: 1,
    });
    // The new point's limiter starts at line rate: one saturated cut halves it.
    expect(h.rates()).toEqual([C / 2, C]);
  });
});
