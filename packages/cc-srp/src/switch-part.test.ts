import { nsToPs, type Scheduler } from "@cclab/core-des";
import { NO_PACKET, type PacketId, type Packets, type QueueSetContext } from "@cclab/fabric";
import { testSwitchContext } from "@cclab/fabric/testing";
import { describe, expect, it } from "vitest";
import { COLUMN, REPLY_LANE, RESERVATION_LANE, SPECULATIVE_LANE } from "./lanes.js";
import { params } from "./params.js";
import { createSwitchPart } from "./switch-part.js";

const LANES = { [RESERVATION_LANE]: 1, [REPLY_LANE]: 2, [SPECULATIVE_LANE]: 3 };

function setup(input: Record<string, unknown> = {}) {
  const sent: PacketId[] = [];
  const context = testSwitchContext({ lanes: LANES, sendControl: (p) => sent.push(p) });
  const part = createSwitchPart(context, params.parse(input));
  const { packets, scheduler } = context;
  const at = (ns: number) => scheduler.runUntil(nsToPs(ns));
  const speculative = () =>
    packets.create({ vl: 3, srcHost: 5, dstHost: 9, flowId: 77, sizeBytes: 256, sl: 0 });
  return { part, packets, scheduler, sent, at, speculative };
}

/** What a switch gives a part building the queues of input 0, `vl`. */
function queueContext(vl: number, packets: Packets, scheduler: Scheduler): QueueSetContext {
  return {
    switchIndex: 0,
    inPort: 0,
    vl,
    portCount: 4,
    hostCount: 16,
    packets,
    scheduler,
    port: () => {
      throw new Error("unused");
    },
    sendOnPort: () => {},
    wake: () => {},
  };
}

describe("SRP switch part", () => {
  it("sums a speculative packet's queueing time over switches and drops it at the head past TTW", () => {
    const { part, packets, sent, at, speculative } = setup({ ttwUs: 1.3 });
    const p = speculative();
    part.onEnqueue!(p, 0);
    at(400);
    part.onDequeue!(p, 0); // 400 ns at the first switch
    at(1000);
    part.onEnqueue!(p, 1); // the next switch (the store is shared: one part stands for both)
    at(1900);
    expect(part.dropAtHead!(p, 1, false)).toBe(false); // 400 + 900 = 1300 ns: not more than TTW
    expect(sent).toEqual([]);
    at(1901);
    expect(part.dropAtHead!(p, 1, false)).toBe(true);
    expect(sent).toHaveLength(1);
    const nack = sent[0]!;
    expect(packets.kind(nack)).toBe("nack");
    expect(packets.sizeBytes[nack]).toBe(8);
    expect(packets.vl[nack]).toBe(2);
    expect(packets.dstHost[nack]).toBe(5);
    expect(packets.srcHost[nack]).toBe(9);
    expect(packets.flowId[nack]).toBe(77);
    expect(packets.column(COLUMN.dropped, Int32Array).values[nack]).toBe(p);
    expect(part.counters!()).toEqual({ speculativeDropped: 1 });
  });

  it("does not count time on other lanes", () => {
    const { part, packets, at } = setup();
    const p = packets.create({ vl: 0, srcHost: 1, dstHost: 2, sizeBytes: 256 });
    part.onEnqueue!(p, 0);
    at(5000);
    part.onDequeue!(p, 0);
    expect(packets.column(COLUMN.queuedPs, Float64Array).values[p]).toBe(0);
  });

  it("queues its three lanes in one FIFO per input, the data lane as configured", () => {
    const { part, packets, scheduler } = setup();
    const queues = (vl: number) => part.createQueueSet!(queueContext(vl, packets, scheduler));
    expect(queues(0)).toBeUndefined();
    const fifo = queues(3)!;
    const a = packets.create({ vl: 3 });
    const b = packets.create({ vl: 3 });
    packets.outPort[a] = 1;
    packets.outPort[b] = 2;
    fifo.enqueue(a);
    fifo.enqueue(b);
    expect(fifo.headFor(2)).toBe(NO_PACKET); // b waits behind a (head-of-line)
    expect(fifo.headFor(1)).toBe(a);
    expect(fifo.dequeueFor(1)).toBe(a);
    expect(fifo.dequeueFor(2)).toBe(b);
    expect(fifo.packetCount).toBe(0);
    const off = setup({ fifoLanes: false });
    expect(off.part.createQueueSet!(queueContext(3, packets, scheduler))).toBeUndefined();
  });

  it("at-head (the default) drops past TTW whether or not the head has room past the crossbar", () => {
    const { part, at, speculative } = setup({ ttwUs: 1 });
    const p = speculative();
    part.onEnqueue!(p, 0);
    at(1001);
    expect(part.dropAtHead!(p, 0, true)).toBe(true);
  });

  it("until-room spares a head with room, drops one still waiting, and one that arrived past TTW", () => {
    const waiting = setup({ ttwUs: 1, dropCheck: "until-room" });
    const p = waiting.speculative();
    waiting.part.onEnqueue!(p, 0);
    waiting.at(1001);
    expect(waiting.part.dropAtHead!(p, 0, true)).toBe(false); // committed to its output
    expect(waiting.sent).toEqual([]);
    expect(waiting.part.dropAtHead!(p, 0, false)).toBe(true); // no room: still waiting, expired
    expect(waiting.part.counters!()).toEqual({ speculativeDropped: 1 });

    const late = setup({ ttwUs: 1, dropCheck: "until-room" });
    const q = late.speculative();
    late.part.onEnqueue!(q, 0);
    late.at(1001);
    late.part.onDequeue!(q, 0); // waited 1001 ns for the crossbar at the first switch
    late.at(1100);
    late.part.onEnqueue!(q, 1);
    expect(late.part.dropAtHead!(q, 1, true)).toBe(true); // checked as it arrives
    expect(late.sent).toHaveLength(1);
  });

  it("rejects an unknown dropCheck, naming the allowed ones", () => {
    const r = params.safeParse({ dropCheck: "never" });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain("at-head");
    expect(JSON.stringify(r.error?.issues)).toContain("until-room");
  });

  it("reads TTW in µs", () => {
    const { part, at, speculative } = setup({ ttwUs: 0.5 });
    const p = speculative();
    part.onEnqueue!(p, 0);
    at(500);
    expect(part.dropAtHead!(p, 0, false)).toBe(false);
    at(501);
    expect(part.dropAtHead!(p, 0, false)).toBe(true);
  });
});
