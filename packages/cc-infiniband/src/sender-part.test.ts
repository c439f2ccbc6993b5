import { serializationPs, type TimePs, usToPs } from "@cclab/core-des";
import { type FlowGate, type PacketId, Packets } from "@cclab/fabric";
import { testHostContext } from "@cclab/fabric/testing";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { params } from "./params.js";
import { createSenderPart, senderPartFactory } from "./sender-part.js";

/** A CCT whose entries are all distinct and exact in picoseconds: entry i = i² / 4 µs. */
const TABLE_US = Array.from({ length: 128 }, (_, i) => (i * i) / 4);

/** Every test part's packets (the parts read the packets they are handed here). */
const PACKETS = new Packets();

function becnFor(flowId: number, becn = true): PacketId {
  return PACKETS.create({ kind: "cnp", becn, flowId, sizeBytes: 64 });
}

function sender(input: Record<string, unknown>, rateGbps = 40) {
  const p = params.parse(input);
  /** Times at which the part told the host its gates may allow sending earlier. */
  const gatesChangedAt: TimePs[] = [];
  const context = testHostContext({
    packets: PACKETS,
    uplinkRateGbps: rateGbps,
    gatesChanged: () => gatesChangedAt.push(context.scheduler.nowPs),
  });
  const scheduler = context.scheduler;
  const part = createSenderPart(p, context);
  const becnKind = scheduler.defineKind("test: BECN", (flowId) =>
    part.onControl?.(becnFor(flowId)),
  );
  const sample = () => {
    const values = new Map<string, number>();
    part.sampleFlows?.((flowId, variable, value) => {
      const key = `${flowId}/${variable}`;
      expect(values.has(key), `${key} visited twice`).toBe(false);
      values.set(key, value);
    });
    return values;
  };
  return {
    p,
    part,
    scheduler,
    gatesChangedAt,
    open: (flowId: number, sl = 0, dstHost = 1): FlowGate =>
      part.openFlow({ flowId, srcHost: 0, dstHost, sl }),
    becn: (flowId: number) => part.onControl?.(becnFor(flowId)),
    becnAt: (atPs: TimePs, flowId: number) => scheduler.schedule(atPs, becnKind, flowId),
    runTo: (atPs: TimePs) => {
      scheduler.run({ untilPs: atPs });
    },
    sample,
    ccti: (flowId: number) => sample().get(`${flowId}/ccti`),
    rate: (flowId: number) => sample().get(`${flowId}/rateGbps`),
    counter: (name: string) => part.counters?.()[name],
  };
}

function dataPacket(sizeBytes: number, flowId: number): PacketId {
  return PACKETS.create({ sizeBytes, flowId });
}

// A timer far beyond anything the tests run to: no decrement interferes.
const NO_TIMER = { cctiTimerUs: 1e6 } as const;

describe("CCTI increase", () => {
  test.prop([
    fc.integer({ min: 0, max: 20 }),
    fc.integer({ min: 0, max: 127 }),
    fc.integer({ min: 0, max: 127 }),
    fc.integer({ min: 0, max: 60 }),
  ])("each BECN raises the CCTI by CCTI_Increase, up to CCTI_Limit", (inc, a, b, n) => {
    const limit = Math.max(a, b);
    const min = Math.min(a, b);
    const s = sender({ ...NO_TIMER, cctiIncrease: inc, cctiLimit: limit, cctiMin: min });
    s.open(3);
    expect(s.ccti(3)).toBe(min);
    let expected = min;
    for (let i = 0; i < n; i++) {
      s.becn(3);
      expected = Math.min(limit, expected + inc);
      expect(s.ccti(3)).toBe(expected);
    }
    expect(s.counter("becnReceived")).toBe(n);
  });

  it("ignores control packets without BECN and BECNs of flows it never opened", () => {
    const s = sender({ ...NO_TIMER });
    s.open(3);
    s.part.onControl?.(becnFor(3, false));
    s.becn(4);
    expect(s.ccti(3)).toBe(0);
    expect(s.sample().has("4/ccti")).toBe(false);
    expect(s.counter("becnReceived")).toBe(0);
    s.becn(3);
    expect(s.ccti(3)).toBe(1);
    expect(s.counter("becnReceived")).toBe(1);
  });
});

describe("injection rate delay", () => {
  test.prop([
    fc.constantFrom(10, 25, 40, 56, 100),
    fc.integer({ min: 64, max: 4200 }),
    fc.integer({ min: 0, max: 10_000_000 }),
    fc.integer({ min: 1, max: 127 }),
    fc.integer({ min: 0, max: 20_000_000 }),
  ])(
    "the next packet may start CCT[CCTI] after the end of the last one, or at once at CCTI 0",
    (rate, size, sentAt, becns, later) => {
      const s = sender({ ...NO_TIMER, cctUs: TABLE_US }, rate);
      const gate = s.open(7);
      s.runTo(sentAt);
      gate.onSent?.(dataPacket(size, 7));
      const end = sentAt + serializationPs(size, rate);
      // CCTI 0: the flow may send whenever asked.
      for (const now of [sentAt, end, sentAt + later]) expect(gate.nextSendPs(now)).toBe(now);
      for (let i = 0; i < becns; i++) s.becn(7);
      expect(s.ccti(7)).toBe(becns);
      const allowed = end + usToPs(TABLE_US[becns]!);
      for (const now of [sentAt, end, sentAt + later]) expect(gate.nextSendPs(now)).toBe(allowed);
    },
  );

  test.prop([fc.integer({ min: 1, max: 127 }), fc.integer({ min: 0, max: 10_000_000 })])(
    "a throttled flow that has sent nothing yet may send at once",
    (becns, at) => {
      const s = sender({ ...NO_TIMER, cctUs: TABLE_US });
      const gate = s.open(7);
      s.runTo(at);
      for (let i = 0; i < becns; i++) s.becn(7);
      expect(s.ccti(7)).toBe(becns);
      // No packet to count CCT[CCTI] from: the delay does not hold the first one back.
      expect(gate.nextSendPs(at)).toBeLessThanOrEqual(at);
      expect(gate.nextSendPs(0)).toBeLessThanOrEqual(0);
      // Its first packet starts the delay.
      gate.onSent?.(dataPacket(1000, 7));
      expect(gate.nextSendPs(at)).toBeGreaterThan(at);
    },
  );

  it("counts from the end of the last packet sent, not the first", () => {
    const s = sender({ ...NO_TIMER, cctUs: TABLE_US }, 10);
    const gate = s.open(1);
    s.becn(1);
    s.becn(1); // CCTI 2: 1 µs
    s.runTo(1000);
    gate.onSent?.(dataPacket(1000, 1)); // 800 ns at 10 Gb/s
    s.runTo(5_000_000);
    gate.onSent?.(dataPacket(100, 1)); // 80 ns
    expect(gate.nextSendPs(5_000_000)).toBe(5_000_000 + 80_000 + 1_000_000);
  });

  test.prop([
    fc.constantFrom(10, 40, 100),
    fc.integer({ min: 64, max: 4200 }),
    fc.integer({ min: 0, max: 127 }),
    fc.integer({ min: 0, max: 1_000_000 }),
  ])(
    "sampleFlows reports the rate the throttle allows for the last packet size",
    (rate, size, ccti, at) => {
      const s = sender({ ...NO_TIMER, cctUs: TABLE_US }, rate);
      const gate = s.open(2);
      expect(s.rate(2)).toBe(rate); // nothing sent yet
      for (let i = 0; i < ccti; i++) s.becn(2);
      s.runTo(at);
      gate.onSent?.(dataPacket(size, 2));
      // One packet of `size` per interval from its start to the next allowed start: its
      // serialization (size · 8000 / rate ps, whole at these rates) and then CCT[CCTI].
      const bits = size * 8;
      const interval = (bits * 1000) / rate + TABLE_US[ccti]! * 1e6;
      const expected = ccti === 0 ? rate : (bits * 1000) / interval;
      expect(s.rate(2)).toBeCloseTo(expected, 9);
      expect(s.rate(2)).toBeLessThanOrEqual(rate);
      expect(s.ccti(2)).toBe(ccti);
    },
  );

  it("sampleFlows at 10 Gb/s, 1000 B, CCT entry 1 µs: 8000 bits per 0.8 + 1 µs", () => {
    const s = sender({ ...NO_TIMER, cctUs: TABLE_US }, 10);
    const gate = s.open(2);
    s.becn(2);
    s.becn(2); // CCTI 2: 1 µs
    gate.onSent?.(dataPacket(1000, 2));
    expect(s.rate(2)).toBeCloseTo(4.444_444_444_444_44, 12); // 8000 / 1800 ns
  });
});

describe("level", () => {
  it('"sl" shares one CCTI among the flows of a service level, not across levels', () => {
    const s = sender({ ...NO_TIMER, level: "sl" });
    s.open(1, 0, 1);
    s.open(2, 0, 2);
    s.open(3, 1, 1);
    s.becn(1);
    s.becn(2);
    expect([s.ccti(1), s.ccti(2), s.ccti(3)]).toEqual([2, 2, 0]);
    s.becn(3);
    expect([s.ccti(1), s.ccti(2), s.ccti(3)]).toEqual([2, 2, 1]);
    expect(s.counter("becnReceived")).toBe(3);
  });

  it('"sl": a flow opened later joins its level\'s current CCTI', () => {
    const s = sender({ ...NO_TIMER, level: "sl" });
    s.open(1, 2, 1);
    s.becn(1);
    s.becn(1);
    s.open(2, 2, 3);
    expect(s.ccti(2)).toBe(2);
  });

  it('"qp" gives every flow its own CCTI, even within a service level', () => {
    const s = sender({ ...NO_TIMER, level: "qp" });
    s.open(1, 0, 1);
    s.open(2, 0, 2);
    s.open(3, 1, 1);
    s.becn(1);
    s.becn(1);
    s.becn(3);
    expect([s.ccti(1), s.ccti(2), s.ccti(3)]).toEqual([2, 0, 1]);
  });
});

describe("CCTI timers", () => {
  const T = usToPs(10);

  it('"port-sl" decrements on the grid k·CCTI_Timer from time 0, not from the BECN', () => {
    const s = sender({ cctiTimerUs: 10, timer: "port-sl" });
    s.open(1, 0);
    s.becnAt(usToPs(7), 1);
    s.becnAt(usToPs(8), 1);
    s.becnAt(usToPs(9), 1); // CCTI 3 at 9 µs
    s.runTo(T - 1);
    expect(s.ccti(1)).toBe(3);
    s.runTo(T); // 10 µs, 3 µs after the last BECN
    expect(s.ccti(1)).toBe(2);
    s.runTo(2 * T - 1);
    expect(s.ccti(1)).toBe(2);
    s.runTo(2 * T);
    expect(s.ccti(1)).toBe(1);
    s.runTo(3 * T);
    expect(s.ccti(1)).toBe(0);
    s.runTo(10 * T);
    expect(s.ccti(1)).toBe(0);
    expect(s.counter("cctiDecrements")).toBe(3);
    // Each lower CCTI may let a parked flow send earlier: the host is told at once.
    expect(s.gatesChangedAt).toEqual([T, 2 * T, 3 * T]);
  });

  it('"port-sl" decrements every throttled flow of the SL at once, and only that SL\'s', () => {
    const s = sender({ cctiTimerUs: 10, timer: "port-sl" });
    s.open(1, 0, 1);
    s.open(2, 0, 2);
    s.open(3, 1, 1);
    s.becnAt(usToPs(3), 1);
    s.becnAt(usToPs(4), 1);
    s.becnAt(usToPs(15), 2); // joins the SL's running timer
    s.becnAt(usToPs(16), 2);
    s.becnAt(usToPs(17), 3);
    s.runTo(T);
    expect([s.ccti(1), s.ccti(2), s.ccti(3)]).toEqual([1, 0, 0]);
    s.runTo(2 * T);
    expect([s.ccti(1), s.ccti(2), s.ccti(3)]).toEqual([0, 1, 0]);
    s.runTo(3 * T);
    expect([s.ccti(1), s.ccti(2), s.ccti(3)]).toEqual([0, 0, 0]);
  });

  it('"port-sl" never goes below CCTI_Min', () => {
    const s = sender({ cctiTimerUs: 10, timer: "port-sl", cctiMin: 2, cctiIncrease: 3 });
    s.open(1);
    expect(s.ccti(1)).toBe(2);
    s.becnAt(usToPs(1), 1); // 5
    s.runTo(10 * T);
    expect(s.ccti(1)).toBe(2);
    expect(s.counter("cctiDecrements")).toBe(3);
  });

  it('"per-flow" decrements CCTI_Timer after the last BECN of the flow, re-armed by each', () => {
    const s = sender({ cctiTimerUs: 10, timer: "per-flow" });
    s.open(1, 0, 1);
    s.open(2, 0, 2);
    s.becnAt(usToPs(3), 1);
    s.becnAt(usToPs(8), 1); // CCTI 2; the timer now ends at 18 µs, not 13
    s.becnAt(usToPs(5), 2); // flow 2: its own timer, ends at 15 µs
    s.runTo(usToPs(13));
    expect([s.ccti(1), s.ccti(2)]).toEqual([2, 1]);
    s.runTo(usToPs(15));
    expect([s.ccti(1), s.ccti(2)]).toEqual([2, 0]);
    s.runTo(usToPs(18) - 1);
    expect(s.ccti(1)).toBe(2);
    s.runTo(usToPs(18));
    expect(s.ccti(1)).toBe(1);
    s.runTo(usToPs(28) - 1);
    expect(s.ccti(1)).toBe(1);
    s.runTo(usToPs(28));
    expect(s.ccti(1)).toBe(0);
    s.runTo(usToPs(100));
    expect([s.ccti(1), s.ccti(2)]).toEqual([0, 0]);
    expect(s.counter("cctiDecrements")).toBe(3);
    expect(s.gatesChangedAt).toEqual([usToPs(15), usToPs(18), usToPs(28)]);
  });

  it('"per-flow" never goes below CCTI_Min', () => {
    const s = sender({ cctiTimerUs: 10, timer: "per-flow", cctiMin: 4 });
    s.open(1);
    s.becnAt(usToPs(1), 1);
    s.becnAt(usToPs(2), 1);
    s.runTo(usToPs(500));
    expect(s.ccti(1)).toBe(4);
    expect(s.counter("cctiDecrements")).toBe(2);
  });

  // Against a reference model: a free-running grid per SL ("port-sl") or a deadline per
  // throttle set CCTI_Timer after its last BECN ("per-flow"), with CCTIs per flow or per SL.
  // BECNs never fall on a grid point or on one another's deadlines, so no two events tie.
  const FLOWS = [
    { flowId: 10, sl: 0, dst: 1 },
    { flowId: 11, sl: 0, dst: 2 },
    { flowId: 12, sl: 1, dst: 1 },
  ] as const;

  test.prop(
    [
      fc.record({
        timer: fc.constantFrom("port-sl" as const, "per-flow" as const),
        level: fc.constantFrom("qp" as const, "sl" as const),
        timerUs: fc.constantFrom(1, 3, 7),
        inc: fc.integer({ min: 0, max: 3 }),
        limit: fc.integer({ min: 0, max: 8 }),
        min: fc.integer({ min: 0, max: 3 }),
        becns: fc.uniqueArray(
          fc.record({
            flow: fc.nat(FLOWS.length - 1),
            tick: fc.nat(10),
            off: fc.integer({ min: 1, max: 999 }),
          }),
          { selector: (e) => e.off, maxLength: 14 },
        ),
        samples: fc.array(fc.integer({ min: 0, max: 16_000 }), { minLength: 1, maxLength: 12 }),
      }),
    ],
    { numRuns: 200 },
  )("timers and levels match the reference model", (c) => {
    const min = Math.min(c.min, c.limit);
    const timerPs = usToPs(c.timerUs);
    const s = sender({
      timer: c.timer,
      level: c.level,
      cctiTimerUs: c.timerUs,
      cctiIncrease: c.inc,
      cctiLimit: c.limit,
      cctiMin: min,
    });
    for (const f of FLOWS) s.open(f.flowId, f.sl, f.dst);
    const becns = c.becns
      .map((e) => ({ flow: e.flow, atPs: e.tick * timerPs + (e.off * timerPs) / 1000 }))
      .sort((a, b) => a.atPs - b.atPs);
    for (const b of becns) s.becnAt(b.atPs, FLOWS[b.flow]!.flowId);

    // The model: one throttle per flow or per SL.
    const key = (f: (typeof FLOWS)[number]) => (c.level === "sl" ? `sl${f.sl}` : `qp${f.flowId}`);
    const ccti = new Map<string, number>(FLOWS.map((f) => [key(f), min]));
    const deadline = new Map<string, number>();
    let decrements = 0;
    const loweredAt = new Set<number>();
    const decrement = (k: string) => {
      if (ccti.get(k)! > min) {
        ccti.set(k, ccti.get(k)! - 1);
        decrements++;
        loweredAt.add(now);
        return true;
      }
      return false;
    };
    let now = 0;
    let next = 0; // index of the next BECN
    let nextTick = timerPs; // port-sl grid
    const advance = (to: number) => {
      for (;;) {
        const becnAt = becns[next]?.atPs ?? Number.POSITIVE_INFINITY;
        const tickAt =
          c.timer === "port-sl"
            ? nextTick
            : Math.min(Number.POSITIVE_INFINITY, ...deadline.values());
        const at = Math.min(becnAt, tickAt);
        if (at > to) break;
        now = at;
        if (becnAt === at) {
          const k = key(FLOWS[becns[next]!.flow]!);
          next++;
          ccti.set(k, Math.min(c.limit, ccti.get(k)! + c.inc));
          if (c.timer === "per-flow" && ccti.get(k)! > min) deadline.set(k, now + timerPs);
        } else if (c.timer === "port-sl") {
          // Every SL's timer runs on the same grid: a grid point lowers every throttle.
          for (const k of ccti.keys()) decrement(k);
          nextTick += timerPs;
        } else {
          for (const [k, d] of [...deadline]) {
            if (d !== at) continue;
            deadline.delete(k);
            decrement(k);
            if (ccti.get(k)! > min) deadline.set(k, now + timerPs);
          }
        }
      }
      now = to;
    };

    const samplesPs = [...c.samples].sort((a, b) => a - b).map((x) => (x * timerPs) / 1000);
    for (const at of samplesPs) {
      advance(at);
      s.runTo(at);
      for (const f of FLOWS) {
        const value = s.ccti(f.flowId)!;
        expect(value, `flow ${f.flowId} at ${at} ps`).toBe(ccti.get(key(f)));
        expect(value).toBeGreaterThanOrEqual(min);
        expect(value).toBeLessThanOrEqual(c.limit);
      }
    }
    const end = 20 * timerPs + c.limit * timerPs;
    advance(end);
    s.runTo(end);
    for (const f of FLOWS) expect(s.ccti(f.flowId)).toBe(min);
    expect(s.counter("cctiDecrements")).toBe(decrements);
    expect(s.counter("becnReceived")).toBe(becns.length);
    // The host hears of every lowering, when it happens.
    expect(new Set(s.gatesChangedAt)).toEqual(loweredAt);
  });
});

test.prop(
  [
    fc.uniqueArray(fc.oneof(fc.nat(5000), fc.integer({ min: 2 ** 31 - 50, max: 2 ** 40 })), {
      minLength: 1,
      maxLength: 300,
    }),
    fc.array(fc.nat(), { maxLength: 200 }),
  ],
  { numRuns: 100 },
)("finds each flow's throttle among hundreds, ids past 2^31 included", (flowIds, picks) => {
  const s = sender({ ...NO_TIMER, cctiIncrease: 1, cctiLimit: 127, cctiMin: 0 });
  for (const flowId of flowIds) s.open(flowId);
  const expected = new Map(flowIds.map((f) => [f, 0]));
  for (const pick of picks) {
    const flowId = flowIds[pick % flowIds.length]!;
    s.becn(flowId);
    expected.set(flowId, Math.min(127, expected.get(flowId)! + 1));
  }
  s.becn(-1); // no flow (−1 marks a free slot of the table): ignored
  s.becn(2 ** 41); // never opened: ignored
  const seen: number[] = [];
  s.part.sampleFlows?.((flowId, variable, value) => {
    if (variable !== "ccti") return;
    seen.push(flowId);
    expect(value, `flow ${flowId}`).toBe(expected.get(flowId));
  });
  expect(seen).toEqual(flowIds); // in the order the flows opened
});

it("the factory creates the part with the given parameters", () => {
  const factory = senderPartFactory(params.parse({ cctiIncrease: 5, ...NO_TIMER }));
  expect(factory.specVersion).toBe(2);
  const part = factory.create(
    testHostContext({ packets: PACKETS, hostCount: 2, uplinkRateGbps: 10 }),
  );
  part.openFlow({ flowId: 9, srcHost: 0, dstHost: 1, sl: 0 });
  part.onControl?.(becnFor(9));
  const seen: [number, string, number][] = [];
  part.sampleFlows?.((f, v, x) => seen.push([f, v, x]));
  expect(seen).toEqual([
    [9, "ccti", 5],
    [9, "rateGbps", 10],
  ]);
});
