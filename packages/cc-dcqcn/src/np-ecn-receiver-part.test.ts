import { type TimePs, usToPs } from "@cclab/core-des";
import { Ecn, type PacketId } from "@cclab/fabric";
import { idlePort, testHostContext } from "@cclab/fabric/testing";
import { describe, expect, it } from "vitest";
import { params } from "./params.js";
import { receiverPartFactory } from "./receiver-part.js";
import { tcdCodeColumn } from "./tcd-code.js";

/** An NP-ECN notification point (host 7, control VL 1) and a way to make packets arrive. */
function np(input: Record<string, unknown> = {}) {
  const sent: { atPs: TimePs; flowId: number; dstHost: number; vl: number; code: number }[] = [];
  const context = testHostContext({
    hostIndex: 7,
    controlVls: [1],
    port: idlePort(2),
    sendControl: (p: PacketId) => {
      const s = context.packets.snapshot(p);
      expect(s).toMatchObject({ kind: "cnp", sizeBytes: 64 });
      const code = tcdCodeColumn(context.packets).values[p]!;
      sent.push({
        atPs: context.scheduler.nowPs,
        flowId: s.flowId,
        dstHost: s.dstHost,
        vl: s.vl,
        code,
      });
    },
  });
  const factory = receiverPartFactory(params.parse({ npEcnReceiver: true, ...input }));
  const part = factory.create(context);
  const { scheduler, packets } = context;
  const arrive = scheduler.defineKind("test: arrival", (packet) => part.onArrive?.(packet));
  return {
    factory,
    sent,
    scheduler,
    /** A data packet of `flowId` (from host 3) arriving at `atUs`, CE or ECT. */
    arriveAt(atUs: number, flowId: number, ce: boolean) {
      const p = packets.create({
        sizeBytes: 1026,
        payloadBytes: 1000,
        flowId,
        srcHost: 3,
        dstHost: 7,
        vl: 0,
        ecn: ce ? Ecn.congestion : Ecn.capable,
      });
      scheduler.schedule(usToPs(atUs), arrive, p);
    },
    /** `count` packets of `flowId` spread over (fromUs, fromUs + 40), the first `ce` of them CE. */
    burst(fromUs: number, flowId: number, count: number, ce: number) {
      for (let i = 0; i < count; i++) this.arriveAt(fromUs + 1 + (38 * i) / count, flowId, i < ce);
    },
    counters: () => part.counters?.(),
  };
}

describe("NP-ECN notification point (npEcnReceiver)", () => {
  it("answers an interval with a CNP when at least 95 % of its packets were CE", () => {
    const h = np({ cnpIntervalUs: 50 });
    h.arriveAt(0, 5, false); // the flow's first packet: checks at 0, 50, 100, 150, …
    h.burst(0, 5, 100, 95); // (0, 50): 95 of 100 CE
    h.burst(50, 5, 20, 19); // (50, 100): 19 of 20 CE
    h.burst(100, 5, 1, 1); // (100, 150): 1 of 1
    h.scheduler.run();
    expect(h.sent).toEqual([
      { atPs: usToPs(50), flowId: 5, dstHost: 3, vl: 1, code: 0 },
      { atPs: usToPs(100), flowId: 5, dstHost: 3, vl: 1, code: 0 },
      { atPs: usToPs(150), flowId: 5, dstHost: 3, vl: 1, code: 0 },
    ]);
    expect(h.counters()).toEqual({ ceReceived: 115, cnpSent: 3, cnpWithheld: 0 });
  });

  it("sends none at 94 %, nor for a few marks among many packets", () => {
    const h = np({ cnpIntervalUs: 50 });
    h.arriveAt(0, 5, false);
    h.burst(0, 5, 100, 94); // (0, 50): 94 of 100
    h.burst(50, 5, 20, 18); // (50, 100): 18 of 20 = 90 %
    h.burst(100, 5, 50, 1);
    h.scheduler.run();
    expect(h.sent).toEqual([]);
    expect(h.counters()).toEqual({ ceReceived: 113, cnpSent: 0, cnpWithheld: 3 });
  });

  it("counts each interval on its own: unmarked packets of one do not dilute the next", () => {
    const h = np({ cnpIntervalUs: 50 });
    h.arriveAt(0, 5, false);
    h.burst(0, 5, 30, 0); // (0, 50): nothing marked, cleared by the check at 50
    h.burst(200, 5, 10, 10); // (200, 250): all CE
    h.scheduler.run();
    expect(h.sent.map((s) => s.atPs)).toEqual([usToPs(250)]);
  });

  it("checks at the flow's first packet: a CE first packet gets a CNP at once", () => {
    const h = np({ cnpIntervalUs: 50 });
    h.arriveAt(7, 2, true); // flow 2: checks at 7, 57, …
    h.arriveAt(20, 2, true);
    h.scheduler.run();
    expect(h.sent.map((s) => [s.atPs, s.flowId])).toEqual([
      [usToPs(7), 2],
      [usToPs(57), 2],
    ]);
  });

  it("counts an arrival at a check's time after that check", () => {
    const h = np({ cnpIntervalUs: 50 });
    h.arriveAt(0, 5, false);
    h.arriveAt(10, 5, true); // (0, 50): 1 of 1
    h.arriveAt(50, 5, false); // at the check: in (50, 100), with no CE
    h.scheduler.run();
    expect(h.sent.map((s) => s.atPs)).toEqual([usToPs(50)]);
  });

  it("keeps flows apart", () => {
    const h = np({ cnpIntervalUs: 50 });
    h.arriveAt(0, 1, false);
    h.arriveAt(0, 2, false);
    h.burst(0, 1, 10, 10);
    h.burst(0, 2, 10, 5);
    h.scheduler.run();
    expect(h.sent.map((s) => s.flowId)).toEqual([1]);
  });

  it("reads the ECN field: a fabric whose switches write only FECN is refused", () => {
    expect(np().factory.reads).toEqual(["ecn"]);
  });
});

describe("npEcnReceiver parameters", () => {
  it("is off by default, with PCN's 0.95 fraction", () => {
    expect(params.parse({})).toMatchObject({ npEcnReceiver: false, npEcnMarkedFraction: 0.95 });
    expect(params.parse({ preset: "tcd", npEcnReceiver: true }).npEcnReceiver).toBe(true);
  });

  it("needs the paper variant, excludes tcdReaction, and bounds the fraction", () => {
    const issues = (input: unknown) =>
      params.safeParse(input).error?.issues.map((i) => i.path.join("."));
    expect(issues({ preset: "nic", npEcnReceiver: true })).toEqual(["npEcnReceiver"]);
    expect(issues({ npEcnReceiver: true, tcdReaction: true })).toEqual(["npEcnReceiver"]);
    expect(issues({ npEcnMarkedFraction: 0 })).toEqual(["npEcnMarkedFraction"]);
    expect(issues({ npEcnMarkedFraction: 1.5 })).toEqual(["npEcnMarkedFraction"]);
  });
});
