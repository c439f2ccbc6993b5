import { type TimePs, usToPs } from "@cclab/core-des";
import { testHostContext } from "@cclab/fabric/testing";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { params } from "./params.js";
import { senderPartFactory } from "./sender-part.js";
import { tcdCodeColumn } from "./tcd-code.js";

const C = 100; // line rate, Gb/s
const UE = 2;
const CE = 3;

/** A sender of one flow (7) at 100 Gb/s; CNPs carry a TCD code. */
function rp(input: Record<string, unknown>) {
  const p = params.parse(input);
  const context = testHostContext({ uplinkRateGbps: C, gatesChanged: () => {} });
  const { scheduler, packets } = context;
  const part = senderPartFactory(p).create(context);
  const gate = part.openFlow({ flowId: 7, srcHost: 0, dstHost: 1, sl: 0 });
  const cnpKind = scheduler.defineKind("test: cnp", (code) => {
    const cnp = packets.create({ kind: "cnp", flowId: 7, sizeBytes: 64 });
    tcdCodeColumn(packets).values[cnp] = code;
    part.onControl?.(cnp);
  });
  const state = () => {
    const v = new Map<string, number>();
    part.sampleFlows?.((_, name, value) => v.set(name, value));
    return { rc: v.get("rateGbps")!, rt: v.get("targetRateGbps")!, alpha: v.get("alpha")! };
  };
  return {
    state,
    /** A CNP with TCD code `code` (0: none) at `atPs`. */
    cnpAt: (atPs: TimePs, code: number) => scheduler.schedule(atPs, cnpKind, code),
    runTo: (atPs: TimePs) => scheduler.run({ untilPs: atPs }),
    sent: (sizeBytes: number) => gate.onSent?.(packets.create({ sizeBytes })),
    counters: () => part.counters?.(),
  };
}

const us = usToPs;
// The reference configuration (preset tcd: α starts at 0.5) with TCD's reaction; no byte
// counter unless a test wants one.
const TCD = { preset: "tcd", tcdReaction: true, byteCounterBytes: null } as const;
const g = 1 / 256;

describe("reaction point with tcdReaction (TCD's rpr_cnm_received)", () => {
  it("a UE-CNP holds the rate: no cut, no α change, the target clamped to the rate", () => {
    const h = rp(TCD);
    h.cnpAt(us(1), CE); // RC 100 → 75 (α 0.5), RT 100, α ← (1 − g)·0.5 + g
    h.runTo(us(2));
    const alpha = (1 - g) * 0.5 + g;
    expect(h.state()).toEqual({ rc: 75, rt: 100, alpha });
    h.cnpAt(us(10), UE);
    h.runTo(us(11));
    expect(h.state()).toEqual({ rc: 75, rt: 75, alpha });
    expect(h.counters()).toEqual({
      cnpReceived: 2,
      rateCuts: 1,
      rateIncreases: 0,
      ceCnpReceived: 1,
      ueCnpReceived: 1,
    });
  });

  it("a UE-CNP restarts the increase timer and the α period", () => {
    const h = rp(TCD);
    h.cnpAt(0, CE); // cut at 0: increase timer due at 55 µs, α period ends at 55 µs
    h.cnpAt(us(40), UE); // both restart: due at 95 µs
    h.runTo(us(94));
    const alpha = (1 - g) * 0.5 + g;
    expect(h.counters()?.rateIncreases).toBe(0);
    expect(h.state().alpha).toBe(alpha);
    h.runTo(us(96));
    expect(h.counters()?.rateIncreases).toBe(1);
    expect(h.state().alpha).toBeCloseTo((1 - g) * alpha, 15);
    // Fast recovery toward RT = RC: the rate stays where the UE-CNP held it.
    expect(h.state()).toMatchObject({ rc: 75, rt: 75 });
  });

  it("a UE-CNP resets the byte counter", () => {
    const h = rp({ ...TCD, byteCounterBytes: 5000 });
    h.cnpAt(0, CE);
    h.runTo(1);
    h.sent(4000);
    h.cnpAt(2, UE);
    h.runTo(3);
    h.sent(4000); // 8000 B since the cut, 4000 since the UE-CNP: no byte-counter event
    expect(h.counters()?.rateIncreases).toBe(0);
    h.sent(1000);
    expect(h.counters()?.rateIncreases).toBe(1);
  });

  it("holds the rate while UE-CNPs keep coming every interval, and recovers once they stop", () => {
    const h = rp({ ...TCD, byteCounterBytes: 10_000_000 });
    h.cnpAt(0, CE);
    for (let k = 1; k <= 20; k++) h.cnpAt(us(50 * k), UE); // 50 µs < the 55 µs timer
    for (let k = 1; k <= 20; k++) {
      h.runTo(us(50 * k) + 1);
      h.sent(1000);
      expect(h.state()).toMatchObject({ rc: 75, rt: 75 });
    }
    expect(h.counters()).toMatchObject({ rateCuts: 1, rateIncreases: 0, ueCnpReceived: 20 });
    // The last UE-CNP at 1000 µs: fast recovery from 1055 µs (no change toward RT = RC), then
    // additive increase after F = 5 events.
    h.runTo(us(1000 + 55 * 6) + 1);
    expect(h.counters()?.rateIncreases).toBe(6);
    expect(h.state().rt).toBeCloseTo(75.04, 12);
    expect(h.state().rc).toBeCloseTo(75.02, 12);
  });

  it("a CNP without a code (a receiver without the reaction) cuts like a CE-CNP", () => {
    const h = rp(TCD);
    h.cnpAt(us(1), 0);
    h.runTo(us(2));
    expect(h.state()).toMatchObject({ rc: 75, rt: 100 });
    expect(h.counters()).toMatchObject({ rateCuts: 1, ceCnpReceived: 1, ueCnpReceived: 0 });
  });

  test.prop(
    [
      fc.array(fc.tuple(fc.integer({ min: 0, max: 2_000_000_000 }), fc.constantFrom(0, CE)), {
        maxLength: 40,
      }),
      fc.constantFrom("paper", "tcd"),
    ],
    { numRuns: 60 },
  )(
    "with only CE-CNPs and CNPs without a code, RC, RT and α follow plain DCQCN exactly",
    (cnps, preset) => {
      const base = { preset, byteCounterBytes: 20_000 };
      const plain = rp(base);
      const tcd = rp({ ...base, tcdReaction: true });
      for (const [at, code] of cnps) {
        plain.cnpAt(at, code);
        tcd.cnpAt(at, code);
      }
      for (let t = us(25); t <= us(2500); t += us(25)) {
        plain.runTo(t);
        tcd.runTo(t);
        plain.sent(1000);
        tcd.sent(1000);
        expect(tcd.state()).toEqual(plain.state());
      }
      const { ceCnpReceived, ueCnpReceived, ...rest } = tcd.counters() ?? {};
      expect(rest).toEqual(plain.counters());
      expect([ceCnpReceived, ueCnpReceived]).toEqual([cnps.length, 0]);
    },
  );

  it("declares that it reads tcd.code (contract 3); without the reaction nothing changes", () => {
    expect(senderPartFactory(params.parse({ tcdReaction: true }))).toMatchObject({
      specVersion: "^3.0.0",
      reads: ["tcd.code"],
    });
    const plain = senderPartFactory(params.parse({}));
    expect(plain.specVersion).toBe(2);
    expect(plain.reads).toBeUndefined();
  });
});
