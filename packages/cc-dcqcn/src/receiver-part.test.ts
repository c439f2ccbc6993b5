import { usToPs } from "@cclab/core-des";
import { Ecn, type PacketId, type PacketSnapshot } from "@cclab/fabric";
import { idlePort, testHostContext } from "@cclab/fabric/testing";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { params } from "./params.js";
import { createReceiverPart } from "./receiver-part.js";

function np(input: Record<string, unknown>) {
  const sent: (PacketSnapshot & { atPs: number })[] = [];
  // The fabric DCQCN asks for: data on VL 0, one control VL (1) for CNPs and ACKs.
  const context = testHostContext({
    hostIndex: 7,
    controlVls: [1],
    port: idlePort(2),
    sendControl: (p: PacketId) =>
      sent.push({ ...context.packets.snapshot(p), atPs: context.scheduler.nowPs }),
  });
  const part = createReceiverPart(params.parse(input), context);
  const { scheduler, packets } = context;
  const data = (flowId: number, ce: boolean, srcHost = 3) =>
    packets.create({
      sizeBytes: 1026,
      payloadBytes: 1000,
      flowId,
      srcHost,
      dstHost: 7,
      sl: 0,
      vl: 0,
      ecn: ce ? Ecn.congestion : Ecn.capable,
    });
  const arriveKind = scheduler.defineKind("test: arrival", (packet) => part.onArrive?.(packet));
  return {
    part,
    sent,
    scheduler,
    /** Data packet of `flowId` arriving at `atUs`. */
    arriveAt: (atUs: number, flowId: number, ce: boolean) =>
      scheduler.schedule(usToPs(atUs), arriveKind, data(flowId, ce)),
    counters: () => part.counters?.(),
  };
}

describe("notification point, paper variant", () => {
  it("answers the first CE of a quiet flow at once with a CNP to its source on the control VL", () => {
    const h = np({});
    h.arriveAt(10, 5, true);
    h.scheduler.run();
    expect(h.sent).toMatchObject([
      { kind: "cnp", flowId: 5, dstHost: 3, vl: 1, sizeBytes: 64, atPs: usToPs(10) },
    ]);
  });

  it("sends no CNP for unmarked packets, and one at the window's end for marks inside it", () => {
    const h = np({ cnpIntervalUs: 50 });
    h.arriveAt(0, 1, true); // CNP at 0
    h.arriveAt(10, 1, false);
    h.arriveAt(20, 1, true); // in the window: answered at 50
    h.arriveAt(30, 1, true); // same window, nothing more
    h.arriveAt(120, 1, true); // quiet since 50: at once
    h.scheduler.run();
    expect(h.sent.map((c) => c.atPs)).toEqual([0, 50, 120].map(usToPs));
    expect(h.counters()).toEqual({ ceReceived: 4, cnpSent: 3, acksSent: 0 });
  });

  test.prop(
    [
      fc.array(fc.tuple(fc.nat({ max: 2000 }), fc.nat({ max: 2 }), fc.boolean()), {
        maxLength: 200,
      }),
      fc.integer({ min: 1, max: 100 }),
    ],
    { numRuns: 100 },
  )(
    "never sends two CNPs of a flow within the interval, and answers every mark within it",
    (arrivals, intervalUs) => {
      const h = np({ cnpIntervalUs: intervalUs });
      for (const [atUs, flow, ce] of arrivals) h.arriveAt(atUs, flow, ce);
      h.scheduler.run();
      for (let flow = 0; flow < 3; flow++) {
        const cnps = h.sent.filter((c) => c.flowId === flow).map((c) => c.atPs);
        for (let i = 1; i < cnps.length; i++) {
          expect(cnps[i]! - cnps[i - 1]!).toBeGreaterThanOrEqual(usToPs(intervalUs));
        }
        // Every mark is answered by a CNP at its arrival or within one interval after it.
        for (const [atUs, f, ce] of arrivals) {
          if (f !== flow || !ce) continue;
          const at = usToPs(atUs);
          expect(cnps.some((t) => t >= at && t <= at + usToPs(intervalUs))).toBe(true);
        }
      }
    },
  );
});

describe("notification point, nic variant", () => {
  it("ACKs every data packet on the control VL, with the CNP flag (BECN) on marked ones", () => {
    const h = np({ preset: "nic" });
    h.arriveAt(1, 4, false);
    h.arriveAt(2, 4, true);
    h.arriveAt(3, 6, true);
    h.scheduler.run();
    expect(h.sent.map((a) => [a.kind, a.flowId, a.becn, a.vl, a.dstHost])).toEqual([
      ["ack", 4, false, 1, 3],
      ["ack", 4, true, 1, 3],
      ["ack", 6, true, 1, 3],
    ]);
    expect(h.counters()).toEqual({ ceReceived: 2, cnpSent: 2, acksSent: 3 });
  });

  it("with ackEveryPackets n, ACKs every n-th packet of a flow and reports only its mark", () => {
    const h = np({ preset: "nic", ackEveryPackets: 3 });
    for (const [i, ce] of [false, true, false, false, false, true].entries())
      h.arriveAt(i + 1, 9, ce);
    h.scheduler.run();
    expect(h.sent.map((a) => a.becn)).toEqual([false, true]);
  });
});
