/**
 * The sender's reaction to TCD's codes (`tcdReaction`): a CE-BECN (code 3, or 0 from a
 * receiver that writes no code) raises the CCTI as any BECN; a UE-BECN (code 2) holds it and
 * restarts the CCTI timer. The rule is inferred (see sender-part.ts).
 */
import { type TimePs, usToPs } from "@cclab/core-des";
import { type FlowGate, type PacketId, Packets } from "@cclab/fabric";
import { testHostContext } from "@cclab/fabric/testing";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { params } from "./params.js";
import { createSenderPart, senderPartFactory } from "./sender-part.js";
import { TCD_CE, TCD_NONE, TCD_UE, tcdCodeColumn } from "./tcd.js";

/** Packets of these tests only (the other sender tests run without a `tcd.code` column). */
const PACKETS = new Packets();
const CODE = tcdCodeColumn(PACKETS);

/** A BECN (CNP with BECN) for `flowId` carrying TCD code `code`. */
function becnFor(flowId: number, code: number): PacketId {
  const p = PACKETS.create({ kind: "cnp", becn: true, flowId, sizeBytes: 64 });
  CODE.values[p] = code;
  return p;
}

function sender(input: Record<string, unknown>) {
  const p = params.parse(input);
  const gatesChangedAt: TimePs[] = [];
  const context = testHostContext({
    packets: PACKETS,
    uplinkRateGbps: 40,
    gatesChanged: () => gatesChangedAt.push(context.scheduler.nowPs),
  });
  const scheduler = context.scheduler;
  const part = createSenderPart(p, context);
  // Target: flow id · 4 + code.
  const becnKind = scheduler.defineKind("test: coded BECN", (target) =>
    part.onControl?.(becnFor(Math.floor(target / 4), target % 4)),
  );
  const ccti = (flowId: number): number | undefined => {
    let value: number | undefined;
    part.sampleFlows?.((f, variable, x) => {
      if (f === flowId && variable === "ccti") value = x;
    });
    return value;
  };
  return {
    part,
    scheduler,
    gatesChangedAt,
    open: (flowId: number, sl = 0, dstHost = 1): FlowGate =>
      part.openFlow({ flowId, srcHost: 0, dstHost, sl }),
    becn: (flowId: number, code: number) => part.onControl?.(becnFor(flowId, code)),
    becnAt: (atPs: TimePs, flowId: number, code: number) =>
      scheduler.schedule(atPs, becnKind, flowId * 4 + code),
    runTo: (atPs: TimePs) => {
      scheduler.run({ untilPs: atPs });
    },
    ccti,
    counters: () => part.counters?.() ?? {},
  };
}

// A timer far beyond anything the tests run to: no decrement interferes.
const NO_TIMER = { cctiTimerUs: 1e6 } as const;
const T = usToPs(10);

describe("CE- and UE-BECNs", () => {
  it("a UE-BECN leaves the CCTI unchanged, throttled or not", () => {
    for (const timer of ["port-sl", "per-flow"] as const) {
      const s = sender({ ...NO_TIMER, timer, tcdReaction: true, cctiIncrease: 3 });
      s.open(1);
      s.becn(1, TCD_UE);
      expect(s.ccti(1), timer).toBe(0);
      s.becn(1, TCD_CE);
      expect(s.ccti(1), timer).toBe(3);
      s.becn(1, TCD_UE);
      s.becn(1, TCD_UE);
      expect(s.ccti(1), timer).toBe(3);
      expect(s.counters(), timer).toEqual({
        becnReceived: 4,
        cctiDecrements: 0,
        ceBecnReceived: 1,
        ueBecnReceived: 3,
      });
    }
  });

  it("a CE-BECN (code 3) and a BECN without a code (0) raise it by CCTI_Increase", () => {
    const s = sender({ ...NO_TIMER, tcdReaction: true, cctiIncrease: 5, cctiLimit: 12 });
    s.open(1);
    s.becn(1, TCD_CE);
    expect(s.ccti(1)).toBe(5);
    s.becn(1, TCD_NONE);
    expect(s.ccti(1)).toBe(10);
    s.becn(1, TCD_CE);
    expect(s.ccti(1)).toBe(12); // CCTI_Limit
    expect(s.counters()).toMatchObject({ ceBecnReceived: 3, ueBecnReceived: 0 });
  });

  it("without tcdReaction a BECN's code is not read: UE raises it too, counters as before", () => {
    const s = sender({ ...NO_TIMER, cctiIncrease: 2 });
    s.open(1);
    s.becn(1, TCD_UE);
    s.becn(1, TCD_CE);
    expect(s.ccti(1)).toBe(4);
    expect(s.counters()).toEqual({ becnReceived: 2, cctiDecrements: 0 });
  });

  it("ignores control packets without BECN and BECNs of flows it never opened", () => {
    const s = sender({ ...NO_TIMER, tcdReaction: true });
    s.open(1);
    const noBecn = PACKETS.create({ kind: "cnp", flowId: 1, sizeBytes: 64 });
    CODE.values[noBecn] = TCD_CE;
    s.part.onControl?.(noBecn);
    s.becn(2, TCD_CE);
    s.becn(2, TCD_UE);
    expect(s.ccti(1)).toBe(0);
    expect(s.counters()).toEqual({
      becnReceived: 0,
      cctiDecrements: 0,
      ceBecnReceived: 0,
      ueBecnReceived: 0,
    });
  });
});

describe("a UE-BECN restarts the CCTI timer", () => {
  it('"per-flow": the CCTI falls one period after the last UE-BECN, not after the BECN', () => {
    const s = sender({ cctiTimerUs: 10, timer: "per-flow", tcdReaction: true });
    s.open(1);
    s.becnAt(usToPs(1), 1, TCD_CE); // CCTI 1; would fall at 11 µs
    s.becnAt(usToPs(5), 1, TCD_UE); // now at 15 µs
    s.becnAt(usToPs(12), 1, TCD_UE); // now at 22 µs
    s.runTo(usToPs(11));
    expect(s.ccti(1)).toBe(1);
    s.runTo(usToPs(15)); // one period after the first UE-BECN: still held
    expect(s.ccti(1)).toBe(1);
    s.runTo(usToPs(22) - 1);
    expect(s.ccti(1)).toBe(1);
    s.runTo(usToPs(22));
    expect(s.ccti(1)).toBe(0);
    expect(s.gatesChangedAt).toEqual([usToPs(22)]);
    expect(s.counters()).toMatchObject({ cctiDecrements: 1, ueBecnReceived: 2 });
  });

  it('"per-flow": a UE-BECN of a flow at CCTI_Min arms nothing', () => {
    const s = sender({ cctiTimerUs: 10, timer: "per-flow", tcdReaction: true });
    s.open(1);
    s.becnAt(usToPs(3), 1, TCD_UE);
    s.runTo(usToPs(3));
    expect(s.scheduler.pending).toBe(0);
    s.becnAt(usToPs(4), 1, TCD_CE); // its own period: falls at 14 µs
    s.runTo(usToPs(14) - 1);
    expect(s.ccti(1)).toBe(1);
    s.runTo(usToPs(14));
    expect(s.ccti(1)).toBe(0);
  });

  it('"port-sl": the SL\'s timer is reloaded, and its grid moves with it', () => {
    const s = sender({ cctiTimerUs: 10, timer: "port-sl", tcdReaction: true });
    s.open(1);
    s.becnAt(usToPs(3), 1, TCD_CE); // CCTI 1; the grid would lower it at 10 µs
    s.becnAt(usToPs(5), 1, TCD_UE); // next expiry 15 µs
    s.becnAt(usToPs(12), 1, TCD_UE); // next expiry 22 µs: the grid is 2 + 10k µs
    s.becnAt(usToPs(13), 1, TCD_CE); // CCTI 2
    s.runTo(T); // held by the UE-BECN at 5 µs
    expect(s.ccti(1)).toBe(1);
    s.runTo(usToPs(15)); // held by the one at 12 µs
    expect(s.ccti(1)).toBe(2);
    s.runTo(usToPs(22) - 1);
    expect(s.ccti(1)).toBe(2);
    s.runTo(usToPs(22));
    expect(s.ccti(1)).toBe(1);
    s.runTo(usToPs(32) - 1);
    expect(s.ccti(1)).toBe(1);
    s.runTo(usToPs(32));
    expect(s.ccti(1)).toBe(0);
    // Idle, then throttled again: the timer runs on the moved grid, as a free-running one.
    s.becnAt(usToPs(40), 1, TCD_CE);
    s.runTo(usToPs(42) - 1);
    expect(s.ccti(1)).toBe(1);
    s.runTo(usToPs(42));
    expect(s.ccti(1)).toBe(0);
    expect(s.gatesChangedAt).toEqual([usToPs(22), usToPs(32), usToPs(42)]);
  });

  it("\"port-sl\": one flow's UE-BECN postpones its SL's decrements at this host, not others'", () => {
    const s = sender({ cctiTimerUs: 10, timer: "port-sl", tcdReaction: true });
    s.open(1, 0, 1);
    s.open(2, 0, 2);
    s.open(3, 1, 1);
    s.becnAt(usToPs(1), 1, TCD_CE);
    s.becnAt(usToPs(1), 3, TCD_CE);
    s.becnAt(usToPs(5), 2, TCD_UE); // flow 2 is not throttled; its SL's timer is reloaded
    s.runTo(T);
    expect([s.ccti(1), s.ccti(2), s.ccti(3)]).toEqual([1, 0, 0]);
    s.runTo(usToPs(15));
    expect([s.ccti(1), s.ccti(2), s.ccti(3)]).toEqual([0, 0, 0]);
  });
});

// A BECN as the tests give it: a flow, a time on the grid of T plus an offset in thousandths
// of T (unique, so no two BECNs, grid points or deadlines tie), and its code.
const becnsArb = (flows: number) =>
  fc.uniqueArray(
    fc.record({
      flow: fc.nat(flows - 1),
      tick: fc.nat(10),
      off: fc.integer({ min: 1, max: 999 }),
      code: fc.constantFrom(TCD_NONE, TCD_UE, TCD_CE),
    }),
    { selector: (e) => e.off, maxLength: 16 },
  );

describe("against the rule", () => {
  const FLOWS = [
    { flowId: 10, sl: 0, dst: 1 },
    { flowId: 11, sl: 0, dst: 2 },
    { flowId: 12, sl: 1, dst: 1 },
  ] as const;

  test.prop(
    [
      fc.constantFrom("port-sl" as const, "per-flow" as const),
      fc.constantFrom("qp" as const, "sl" as const),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 0, max: 2 }),
      // Codes 3 and 0 only.
      becnsArb(FLOWS.length).map((b) =>
        b.map((e) => ({ ...e, code: e.code === TCD_UE ? TCD_CE : e.code })),
      ),
      fc.array(fc.integer({ min: 0, max: 16_000 }), { minLength: 1, maxLength: 10 }),
    ],
    { numRuns: 100 },
  )(
    "CE-BECNs act exactly as BECNs do without the option",
    (timer, level, inc, min, ces, samples) => {
      const input = { cctiTimerUs: 3, timer, level, cctiIncrease: inc, cctiLimit: 6, cctiMin: min };
      const tcd = sender({ ...input, tcdReaction: true });
      const plain = sender(input);
      for (const s of [tcd, plain]) for (const f of FLOWS) s.open(f.flowId, f.sl, f.dst);
      const timerPs = usToPs(3);
      for (const b of ces) {
        const at = b.tick * timerPs + (b.off * timerPs) / 1000;
        tcd.becnAt(at, FLOWS[b.flow]!.flowId, b.code);
        plain.becnAt(at, FLOWS[b.flow]!.flowId, TCD_NONE);
      }
      for (const at of [...samples].sort((a, b) => a - b).map((x) => (x * timerPs) / 1000)) {
        tcd.runTo(at);
        plain.runTo(at);
        for (const f of FLOWS) expect(tcd.ccti(f.flowId)).toBe(plain.ccti(f.flowId));
      }
      tcd.runTo(100 * timerPs);
      plain.runTo(100 * timerPs);
      expect(tcd.gatesChangedAt).toEqual(plain.gatesChangedAt);
      expect(tcd.counters()).toEqual({
        ...plain.counters(),
        ceBecnReceived: ces.length,
        ueBecnReceived: 0,
      });
    },
  );

  test.prop(
    [
      fc.record({
        timer: fc.constantFrom("port-sl" as const, "per-flow" as const),
        level: fc.constantFrom("qp" as const, "sl" as const),
        timerUs: fc.constantFrom(1, 3, 7),
        inc: fc.integer({ min: 0, max: 3 }),
        limit: fc.integer({ min: 0, max: 8 }),
        min: fc.integer({ min: 0, max: 3 }),
        becns: becnsArb(FLOWS.length),
        samples: fc.array(fc.integer({ min: 0, max: 16_000 }), { minLength: 1, maxLength: 12 }),
      }),
    ],
    { numRuns: 200 },
  )("CCTIs, decrements and counters match a model of the rule", (c) => {
    const min = Math.min(c.min, c.limit);
    const timerPs = usToPs(c.timerUs);
    const s = sender({
      timer: c.timer,
      level: c.level,
      cctiTimerUs: c.timerUs,
      cctiIncrease: c.inc,
      cctiLimit: c.limit,
      cctiMin: min,
      tcdReaction: true,
    });
    for (const f of FLOWS) s.open(f.flowId, f.sl, f.dst);
    const becns = c.becns
      .map((e) => ({ ...e, atPs: e.tick * timerPs + (e.off * timerPs) / 1000 }))
      .sort((a, b) => a.atPs - b.atPs);
    for (const b of becns) s.becnAt(b.atPs, FLOWS[b.flow]!.flowId, b.code);

    // The model: one throttle per flow or per SL; per-flow deadlines, or per SL a reloadable
    // free-running timer (its grid's phase, and its next expiry while some throttle is raised).
    type Flow = (typeof FLOWS)[number];
    const key = (f: Flow) => (c.level === "sl" ? `sl${f.sl}` : `qp${f.flowId}`);
    const slOf = new Map(FLOWS.map((f) => [key(f), f.sl]));
    const ccti = new Map<string, number>(FLOWS.map((f) => [key(f), min]));
    const deadline = new Map<string, number>(); // per-flow
    const phase = new Map<number, number>(); // port-sl, by SL
    const nextTick = new Map<number, number>(); // port-sl, by SL, while running
    let decrements = 0;
    let ce = 0;
    let ue = 0;
    const loweredAt = new Set<number>();
    let now = 0;
    const raisedIn = (sl: number) => [...ccti].some(([k, v]) => slOf.get(k) === sl && v > min);
    const onBecn = (f: Flow, code: number) => {
      const k = key(f);
      if (code === TCD_UE) {
        ue++;
        if (c.timer === "per-flow") {
          if (ccti.get(k)! > min) deadline.set(k, now + timerPs);
        } else {
          phase.set(f.sl, now % timerPs);
          if (raisedIn(f.sl)) nextTick.set(f.sl, now + timerPs);
        }
        return;
      }
      ce++;
      ccti.set(k, Math.min(c.limit, ccti.get(k)! + c.inc));
      if (ccti.get(k)! <= min) return;
      if (c.timer === "per-flow") deadline.set(k, now + timerPs);
      else if (!nextTick.has(f.sl)) {
        const ph = phase.get(f.sl) ?? 0;
        nextTick.set(f.sl, ph + (Math.floor((now - ph) / timerPs) + 1) * timerPs);
      }
    };
    const lower = (k: string) => {
      if (ccti.get(k)! <= min) return;
      ccti.set(k, ccti.get(k)! - 1);
      decrements++;
      loweredAt.add(now);
    };
    let next = 0;
    const advance = (to: number) => {
      for (;;) {
        const becnAt = becns[next]?.atPs ?? Number.POSITIVE_INFINITY;
        const timers = c.timer === "port-sl" ? nextTick : deadline;
        const tickAt = Math.min(Number.POSITIVE_INFINITY, ...timers.values());
        const at = Math.min(becnAt, tickAt);
        if (at > to) break;
        now = at;
        if (becnAt === at) {
          const b = becns[next++]!;
          onBecn(FLOWS[b.flow]!, b.code);
        } else if (c.timer === "port-sl") {
          for (const [sl, t] of [...nextTick]) {
            if (t !== at) continue;
            for (const k of ccti.keys()) if (slOf.get(k) === sl) lower(k);
            if (raisedIn(sl)) nextTick.set(sl, now + timerPs);
            else nextTick.delete(sl);
          }
        } else {
          for (const [k, d] of [...deadline]) {
            if (d !== at) continue;
            deadline.delete(k);
            lower(k);
            if (ccti.get(k)! > min) deadline.set(k, now + timerPs);
          }
        }
      }
      now = to;
    };

    for (const at of [...c.samples].sort((a, b) => a - b).map((x) => (x * timerPs) / 1000)) {
      advance(at);
      s.runTo(at);
      for (const f of FLOWS)
        expect(s.ccti(f.flowId), `flow ${f.flowId} at ${at} ps`).toBe(ccti.get(key(f)));
    }
    const end = 30 * timerPs + c.limit * timerPs;
    advance(end);
    s.runTo(end);
    for (const f of FLOWS) expect(s.ccti(f.flowId)).toBe(min);
    expect(s.counters()).toEqual({
      becnReceived: becns.length,
      cctiDecrements: decrements,
      ceBecnReceived: ce,
      ueBecnReceived: ue,
    });
    expect(new Set(s.gatesChangedAt)).toEqual(loweredAt);
  });
});

describe("declarations", () => {
  it("with tcdReaction the sender reads tcd.code, so a switch part must write it", () => {
    const factory = senderPartFactory(params.parse({ tcdReaction: true }));
    expect(factory.reads).toEqual(["becn", "tcd.code"]);
    expect(factory.writes).toBeUndefined();
    expect(factory.specVersion).toBe("^3.0.0");
  });

  it("without, as before, and it makes no tcd.code column", () => {
    const factory = senderPartFactory(params.parse({}));
    expect(factory.reads).toEqual(["becn"]);
    expect(factory.specVersion).toBe(2);
    const packets = new Packets();
    factory.create(testHostContext({ packets }));
    // Had the part made the column (a Uint8Array), asking for another type would throw.
    expect(() => packets.column("tcd.code", Float64Array)).not.toThrow();
  });
});
