import { type TimePs, usToPs } from "@cclab/core-des";
import { Ecn, type EcnCodePoint, type PacketId } from "@cclab/fabric";
import { idlePort, testHostContext } from "@cclab/fabric/testing";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { params } from "./params.js";
import { receiverPartFactory } from "./receiver-part.js";
import { tcdCodeColumn } from "./tcd-code.js";

const UE = 2;
const CE = 3;

function np(input: Record<string, unknown> = {}) {
  const sent: { atPs: TimePs; flowId: number; dstHost: number; vl: number; code: number }[] = [];
  const context = testHostContext({
    hostIndex: 7,
    controlVls: [1],
    port: idlePort(2),
    sendControl: (p: PacketId) => {
      const s = context.packets.snapshot(p);
      expect(s).toMatchObject({ kind: "cnp", sizeBytes: 64 });
      sent.push({
        atPs: context.scheduler.nowPs,
        flowId: s.flowId,
        dstHost: s.dstHost,
        vl: s.vl,
        code: tcdCodeColumn(context.packets).values[p]!,
      });
    },
  });
  const factory = receiverPartFactory(params.parse({ tcdReaction: true, ...input }));
  const part = factory.create(context);
  const { scheduler, packets } = context;
  // A TCD switch wrote `code` (and CE in the ECN field with it); `ecn` alone: a RED switch.
  const data = (flowId: number, code: number, ecn: EcnCodePoint) => {
    const p = packets.create({
      sizeBytes: 1026,
      payloadBytes: 1000,
      flowId,
      srcHost: 3,
      dstHost: 7,
      sl: 0,
      vl: 0,
      ecn,
    });
    tcdCodeColumn(packets).values[p] = code;
    return p;
  };
  const arriveKind = scheduler.defineKind("test: arrival", (packet) => part.onArrive?.(packet));
  return {
    factory,
    sent,
    scheduler,
    /** A data packet of `flowId` with TCD code `code` arriving at `atPs`. */
    arrivePs: (atPs: TimePs, flowId: number, code: number) =>
      scheduler.schedule(
        atPs,
        arriveKind,
        data(flowId, code, code === CE ? Ecn.congestion : Ecn.capable),
      ),
    arriveAt: (atUs: number, flowId: number, code: number) =>
      scheduler.schedule(
        usToPs(atUs),
        arriveKind,
        data(flowId, code, code === CE ? Ecn.congestion : Ecn.capable),
      ),
    /** A data packet CE-marked by a plain RED switch (ECN field only, no TCD code). */
    arriveRedCeAt: (atUs: number, flowId: number) =>
      scheduler.schedule(usToPs(atUs), arriveKind, data(flowId, 0, Ecn.congestion)),
    counters: () => part.counters?.(),
  };
}

describe("notification point with tcdReaction (TCD's CheckandSendQCN)", () => {
  it("sends one CNP per interval carrying the OR of its codes: CE wins over UE, UE alone is UE", () => {
    const h = np({ cnpIntervalUs: 50 });
    h.arriveAt(0, 5, 0); // the flow's first packet: its ticks fall on 0, 50, 100, …
    h.arriveAt(10, 5, UE);
    h.arriveAt(20, 5, CE);
    h.arriveAt(30, 5, UE); // interval (0, 50]: UE | CE | UE = CE
    h.arriveAt(60, 5, UE);
    h.arriveAt(70, 5, UE); // (50, 100]: UE
    h.arriveAt(110, 5, 0);
    h.arriveAt(120, 5, 0); // (100, 150]: nothing marked, no CNP
    h.scheduler.run();
    expect(h.sent).toEqual([
      { atPs: usToPs(50), flowId: 5, dstHost: 3, vl: 1, code: CE },
      { atPs: usToPs(100), flowId: 5, dstHost: 3, vl: 1, code: UE },
    ]);
    expect(h.counters()).toEqual({
      ceReceived: 1,
      ueReceived: 4,
      cnpSent: 2,
      ceCnpSent: 1,
      ueCnpSent: 1,
    });
  });

  it("sends nothing while no packet is marked", () => {
    const h = np();
    for (let i = 0; i < 40; i++) h.arriveAt(i * 7, i % 3, 0);
    h.scheduler.run();
    expect(h.sent).toEqual([]);
    expect(h.counters()).toMatchObject({ ceReceived: 0, ueReceived: 0, cnpSent: 0 });
  });

  it("starts a flow's timer at its first packet: a marked first packet is answered at once", () => {
    const h = np({ cnpIntervalUs: 50 });
    h.arriveAt(7, 1, UE); // flow 1: ticks at 7, 57, 107, …
    h.arriveAt(8, 1, UE);
    h.arriveAt(20, 2, 0); // flow 2: ticks at 20, 70, 120, …
    h.arriveAt(30, 2, CE);
    h.arriveAt(150, 2, UE); // quiet since 70: still on its grid, at 170
    h.scheduler.run();
    expect(h.sent.map((c) => [c.atPs, c.flowId, c.code])).toEqual([
      [usToPs(7), 1, UE],
      [usToPs(57), 1, UE],
      [usToPs(70), 2, CE],
      [usToPs(170), 2, UE],
    ]);
  });

  it("takes a CE of a plain RED switch (ECN field, no TCD code) as CE", () => {
    const h = np({ cnpIntervalUs: 50 });
    h.arriveAt(0, 4, 0);
    h.arriveAt(5, 4, UE);
    h.arriveRedCeAt(6, 4);
    h.scheduler.run();
    expect(h.sent.map((c) => [c.atPs, c.code])).toEqual([[usToPs(50), CE]]);
  });

  it("declares that it reads tcd.code (contract 3), so a fabric without a TCD switch is refused", () => {
    const h = np();
    expect(h.factory).toMatchObject({ specVersion: "^3.0.0", reads: ["tcd.code"] });
    expect(h.factory.writes).toBeUndefined();
    expect(receiverPartFactory(params.parse({})).reads).toEqual(["ecn"]);
  });

  test.prop(
    [
      fc.integer({ min: 1, max: 100 }),
      // Each flow's first packet, at a time off the whole-µs grid of the others.
      fc.array(fc.constantFrom(0, UE, CE), { minLength: 3, maxLength: 3 }),
      fc.array(
        fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.nat({ max: 2 }), fc.nat({ max: 2 })),
        {
          maxLength: 200,
        },
      ),
    ],
    { numRuns: 100 },
  )(
    "answers each interval of a flow's grid with exactly the OR of its packets' codes",
    (intervalUs, firstCodes, arrivals) => {
      const h = np({ cnpIntervalUs: intervalUs });
      const codes = [0, UE, CE];
      // First packets at 0.1, 0.35, 0.6 µs: no later packet (whole µs) falls on a tick.
      const firstPs = firstCodes.map((_, f) => usToPs(0.1 + 0.25 * f));
      for (const [f, code] of firstCodes.entries()) h.arrivePs(firstPs[f]!, f, code);
      for (const [atUs, f, c] of arrivals) h.arriveAt(atUs, f, codes[c]!);
      h.scheduler.run();
      const I = usToPs(intervalUs);
      for (let f = 0; f < 3; f++) {
        // The oracle: tick 0 at the first packet with its code; tick k ≥ 1 with the OR of the
        // codes that arrived in (first + (k − 1)·I, first + k·I).
        const or = new Map<number, number>([[0, firstCodes[f]!]]);
        for (const [atUs, g, c] of arrivals) {
          if (g !== f) continue;
          const k = Math.ceil((usToPs(atUs) - firstPs[f]!) / I);
          or.set(k, (or.get(k) ?? 0) | codes[c]!);
        }
        const expected = [...or]
          .filter(([, code]) => code !== 0)
          .sort(([a], [b]) => a - b)
          .map(([k, code]) => [firstPs[f]! + k * I, code]);
        expect(h.sent.filter((s) => s.flowId === f).map((s) => [s.atPs, s.code])).toEqual(expected);
      }
    },
  );
});
