import { serializationPs, type TimePs, usToPs } from "@cclab/core-des";
import type { FlowGate } from "@cclab/fabric";
import { testHostContext } from "@cclab/fabric/testing";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { params } from "./params.js";
import { createSenderPart, senderPartFactory } from "./sender-part.js";

const C = 100; // line rate, Gb/s

function rp(input: Record<string, unknown>) {
  const p = params.parse(input);
  let gatesChanged = 0;
  const context = testHostContext({ uplinkRateGbps: C, gatesChanged: () => gatesChanged++ });
  const { scheduler, packets } = context;
  const part = createSenderPart(p, context);
  const gate: FlowGate = part.openFlow({ flowId: 7, srcHost: 0, dstHost: 1, sl: 0 });
  const notification = () =>
    p.variant === "paper"
      ? packets.create({ kind: "cnp", flowId: 7, sizeBytes: 64 })
      : packets.create({ kind: "ack", flowId: 7, sizeBytes: 64, becn: true });
  const notifyKind = scheduler.defineKind("test: notification", () =>
    part.onControl?.(notification()),
  );
  const state = () => {
    const v = new Map<string, number>();
    part.sampleFlows?.((flowId, name, value) => {
      expect(flowId).toBe(7);
      v.set(name, value);
    });
    return { rc: v.get("rateGbps")!, rt: v.get("targetRateGbps")!, alpha: v.get("alpha")! };
  };
  return {
    p,
    gate,
    scheduler,
    packets,
    state,
    gatesChanged: () => gatesChanged,
    /** A CNP (paper) or a flagged ACK (nic) for the flow at `atPs`. */
    notifyAt: (atPs: TimePs) => scheduler.schedule(atPs, notifyKind, 0),
    runTo: (atPs: TimePs) => scheduler.run({ untilPs: atPs }),
    sent: (sizeBytes: number) => gate.onSent?.(packets.create({ sizeBytes })),
    counters: () => part.counters?.(),
  };
}

// No increase events and no α decay within a test unless it wants them.
const QUIET = { increaseTimerUs: 1e6, byteCounterBytes: null, alphaTimerUs: 1e6 } as const;

describe("reaction point, paper variant (spec section 4)", () => {
  it("a CNP at line rate with α = 1 halves the rate and keeps line rate as the target", () => {
    const h = rp({ ...QUIET });
    expect(h.state()).toEqual({ rc: C, rt: C, alpha: 1 });
    h.notifyAt(usToPs(1));
    h.runTo(usToPs(2));
    expect(h.state()).toEqual({ rc: C / 2, rt: C, alpha: 1 });
    expect(h.counters()).toEqual({ cnpReceived: 1, rateCuts: 1, rateIncreases: 0 });
  });

  it("fast recovery halves the gap to the target F times, then additive increase adds R_AI", () => {
    const h = rp({ increaseTimerUs: 55, byteCounterBytes: null, alphaTimerUs: 1e6 });
    h.notifyAt(0);
    h.notifyAt(1); // RT ← 50, RC ← 25
    h.runTo(2);
    expect(h.state()).toMatchObject({ rc: 25, rt: 50 });
    const rcs: number[] = [];
    const rts: number[] = [];
    for (let k = 1; k <= 7; k++) {
      h.runTo(1 + k * usToPs(55));
      rcs.push(h.state().rc);
      rts.push(h.state().rt);
    }
    // Five fast-recovery steps toward 50, then RT + 0.04 per additive step.
    expect(rcs.slice(0, 5)).toEqual([37.5, 43.75, 46.875, 48.4375, 49.21875]);
    expect(rts.slice(0, 5)).toEqual([50, 50, 50, 50, 50]);
    expect(rts[5]).toBeCloseTo(50.04, 12);
    expect(rcs[5]).toBeCloseTo((49.21875 + 50.04) / 2, 12);
    expect(rts[6]).toBeCloseTo(50.08, 12);
    expect(h.gatesChanged()).toBe(7);
  });

  it("the k-th hyper-increase event adds k·R_HAI once both counters passed F", () => {
    // A byte counter of 1000 B: one event per packet sent below line rate.
    const h = rp({
      increaseTimerUs: 55,
      byteCounterBytes: 1000,
      alphaTimerUs: 1e6,
      fastRecoverySteps: 2,
    });
    h.notifyAt(0);
    h.notifyAt(1);
    h.runTo(2); // RC 25, RT 50
    // Timer stages T = 1..3 (at 55, 110, 165 µs); bytes in between raise BC.
    h.runTo(usToPs(55) + 1); // T = 1: fast recovery
    h.sent(1000); // BC = 1
    h.sent(1000); // BC = 2
    h.runTo(usToPs(110) + 1); // T = 2
    h.sent(1000); // BC = 3: max 3 > F = 2, min 2: additive
    const rtAfterAi = h.state().rt;
    expect(rtAfterAi).toBeCloseTo(50.04, 12);
    h.runTo(usToPs(165) + 1); // T = 3: min(3, 3) = 3 > 2: hyper, i = 1
    expect(h.state().rt).toBeCloseTo(rtAfterAi + 0.2, 12);
    h.sent(1000); // BC = 4, T = 3: min 3, i = 1 again
    expect(h.state().rt).toBeCloseTo(rtAfterAi + 0.4, 12);
    h.runTo(usToPs(220) + 1); // T = 4: min(4, 4) → i = 2
    expect(h.state().rt).toBeCloseTo(rtAfterAi + 0.8, 12);
  });

  it("α decays by (1 − g) every K without CNPs, and a CNP raises it by g after the cut", () => {
    const g = 1 / 16;
    const h = rp({ increaseTimerUs: 1e6, byteCounterBytes: null, alphaTimerUs: 10, g });
    h.notifyAt(0);
    h.runTo(1);
    expect(h.state().alpha).toBe(1);
    h.runTo(usToPs(35)); // three periods
    expect(h.state().alpha).toBeCloseTo((1 - g) ** 3, 14);
    h.notifyAt(usToPs(35));
    h.runTo(usToPs(35) + 1);
    // The cut used α = (1 − g)^3; then α ← (1 − g)α + g.
    const a3 = (1 - g) ** 3;
    expect(h.state().rc).toBeCloseTo((C / 2) * (1 - a3 / 2), 12);
    expect(h.state().alpha).toBeCloseTo((1 - g) * a3 + g, 14);
  });

  it("never cuts below the minimum rate", () => {
    const h = rp({ ...QUIET, minRateMbps: 10_000 });
    for (let i = 0; i < 10; i++) h.notifyAt(i);
    h.runTo(20);
    expect(h.state().rc).toBe(10);
  });

  it("paces packets at the current rate: the next may start size / RC after the last", () => {
    const h = rp({ ...QUIET });
    h.runTo(1000);
    h.sent(1250);
    expect(h.gate.nextSendPs(1000)).toBe(1000); // line rate: only the link paces
    h.notifyAt(2000);
    h.runTo(2000);
    expect(h.gate.nextSendPs(2000)).toBe(1000 + serializationPs(1250, C / 2));
  });
});

describe("reaction point, nic variant (spec section 6)", () => {
  it("the first flag starts α at 1 without a cut; the check 4 µs + 1 ns later cuts once", () => {
    const h = rp({ preset: "nic", increaseTimerUs: 1e6 });
    const t0 = usToPs(10);
    h.notifyAt(t0);
    // More flags before the check: still one cut.
    h.notifyAt(t0 + usToPs(2));
    h.notifyAt(t0 + usToPs(3));
    h.runTo(t0 + usToPs(4));
    expect(h.state()).toMatchObject({ rc: C, rt: C });
    h.runTo(t0 + usToPs(4) + 1);
    // α: 1 at t0; boundaries at +1, +2, +3, +4 µs: the first two without a flag, the third and
    // fourth with one (flags at +2 and +3 µs fall in the periods ending at +3 and +4).
    const g = 1 / 256;
    let alpha = 1;
    alpha = (1 - g) * alpha;
    alpha = (1 - g) * alpha;
    alpha = (1 - g) * alpha + g;
    alpha = (1 - g) * alpha + g;
    expect(h.state().alpha).toBeCloseTo(alpha, 14);
    expect(h.state().rc).toBeCloseTo(C * (1 - alpha / 2), 12);
    // No increase event yet since the (first) cut: the target stays at line rate.
    expect(h.state().rt).toBe(C);
    expect(h.counters()).toEqual({ cnpReceived: 3, rateCuts: 1, rateIncreases: 0 });
  });

  it("cuts at most once per check however many flags arrive", () => {
    const h = rp({ preset: "nic", increaseTimerUs: 1e6, alphaTimerUs: 1e6 });
    for (let k = 0; k < 40; k++) h.notifyAt(k * usToPs(0.5)); // 20 µs of flags
    h.runTo(usToPs(30));
    // Checks at 4 µs + 1 ns and every 4 µs after: the flags of each period give one cut.
    expect(h.counters()?.rateCuts).toBe(5);
  });

  it("after a cut the increase timer does fast recovery, one additive step, then constant hyper steps", () => {
    const h = rp({ preset: "nic", increaseTimerUs: 300, alphaTimerUs: 1e6 });
    h.notifyAt(0);
    h.runTo(usToPs(5)); // cut at 4 µs + 1 ns with α = 1: RC 50, RT 100
    expect(h.state()).toMatchObject({ rc: 50, rt: 100 });
    const cut = usToPs(4) + 1;
    const at = (k: number) => cut + k * usToPs(300);
    h.runTo(at(1)); // stage 0 < F = 1: fast recovery
    expect(h.state()).toMatchObject({ rc: 75, rt: 100 });
    h.notifyAt(at(1) + 1); // a second cut: now clamped (an increase happened)
    h.runTo(at(1) + usToPs(5));
    expect(h.state()).toMatchObject({ rc: 37.5, rt: 75 });
    // Checks fall on 1 ns + k·4 µs from the first flag: the first after the flag is k = 77.
    const cut2 = 1 + 77 * usToPs(4);
    const steps = [0, 1, 2, 3].map((k) => {
      h.runTo(cut2 + (k + 1) * usToPs(300));
      return h.state();
    });
    expect(steps[0]).toMatchObject({ rc: 56.25, rt: 75 }); // fast recovery
    expect(steps[1]!.rt).toBeCloseTo(75.02, 12); // additive, once
    expect(steps[2]!.rt).toBeCloseTo(75.22, 12); // hyper: + R_HAI
    expect(steps[3]!.rt).toBeCloseTo(75.42, 12); // hyper: + R_HAI again
    expect(steps[3]!.rc).toBeCloseTo((steps[2]!.rc + steps[3]!.rt) / 2, 12);
  });
});

describe("reaction point, both variants", () => {
  test.prop(
    [
      fc.constantFrom("paper", "nic"),
      fc.array(fc.integer({ min: 0, max: 3_000_000_000 }), { maxLength: 60 }),
      fc.array(fc.integer({ min: 64, max: 4096 }), { maxLength: 60 }),
      fc.integer({ min: 100, max: 50_000 }),
    ],
    { numRuns: 100 },
  )(
    "keeps the rate and the target within [min rate, line rate]",
    (preset, flags, sizes, minMbps) => {
      const h = rp({
        preset,
        minRateMbps: minMbps,
        byteCounterBytes: preset === "paper" ? 5000 : null,
      });
      for (const t of flags) h.notifyAt(t);
      let t = 0;
      for (const size of sizes) {
        t += 50_000_000;
        h.runTo(t);
        h.sent(size);
        const { rc, rt, alpha } = h.state();
        expect(rc).toBeGreaterThanOrEqual(Math.min(minMbps / 1000, C));
        expect(rc).toBeLessThanOrEqual(C);
        expect(rt).toBeLessThanOrEqual(C);
        expect(rt).toBeGreaterThanOrEqual(Math.min(minMbps / 1000, C));
        expect(alpha).toBeGreaterThanOrEqual(0);
        expect(alpha).toBeLessThanOrEqual(1);
      }
    },
  );

  it("the factory creates the part", () => {
    const factory = senderPartFactory(params.parse({ preset: "nic" }));
    expect(factory.specVersion).toBe(2);
    expect(
      factory
        .create(testHostContext())
        .openFlow({ flowId: 1, srcHost: 0, dstHost: 2, sl: 0 })
        .nextSendPs(5),
    ).toBe(5);
  });
});
