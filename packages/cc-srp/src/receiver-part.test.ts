import { nsToPs, serializationPs, usToPs } from "@cclab/core-des";
import { NAMED_PACKET_KINDS, type PacketId } from "@cclab/fabric";
import { testHostContext } from "@cclab/fabric/testing";
import { describe, expect, it } from "vitest";
import { COLUMN, REPLY_LANE, RESERVATION_LANE, SPECULATIVE_LANE } from "./lanes.js";
import { params } from "./params.js";
import { SrpInOrderReceiver, SrpReceiver } from "./receiver-part.js";

const LANES = { [RESERVATION_LANE]: 1, [REPLY_LANE]: 2, [SPECULATIVE_LANE]: 3 };
const RESERVATION = NAMED_PACKET_KINDS.indexOf("reservation");

function setup(input: Record<string, unknown> = {}) {
  const sent: PacketId[] = [];
  const context = testHostContext({
    hostIndex: 3,
    lanes: LANES,
    uplinkRateGbps: 10,
    mtuBytes: 256,
    dataHeaderBytes: 0,
    sendControl: (p) => sent.push(p),
  });
  const part = new SrpReceiver(context, params.parse(input));
  const { packets, scheduler } = context;
  const startPs = packets.column(COLUMN.startPs, Float64Array);
  const chunk = packets.column(COLUMN.chunk, Int32Array);
  const reserve = (src: number, n: number, seq: number) => {
    const r = packets.create({ srcHost: src, dstHost: 3, flowId: src * 100, sizeBytes: 8, vl: 1 });
    packets.kindCode[r] = RESERVATION;
    packets.column(COLUMN.packets, Int32Array).values[r] = n;
    chunk.values[r] = seq;
    part.onArrive(r);
    return sent[sent.length - 1]!;
  };
  return { part, packets, scheduler, sent, startPs, chunk, reserve };
}

describe("SRP destination", () => {
  it("grants max(now, register) and moves the register by n·(1+ε)·τ_p", () => {
    const { packets, scheduler, startPs, chunk, reserve } = setup({ epsilon: 0.05 });
    const tau = serializationPs(256, 10); // 204.8 ns
    const g1 = reserve(0, 8, 4);
    expect(packets.kind(g1)).toBe("grant");
    expect(startPs.values[g1]).toBe(0);
    expect(chunk.values[g1]).toBe(4);
    expect(packets.dstHost[g1]).toBe(0);
    expect(packets.flowId[g1]).toBe(0);
    expect(packets.vl[g1]).toBe(2);
    expect(packets.sizeBytes[g1]).toBe(8);
    scheduler.runUntil(nsToPs(100));
    const g2 = reserve(1, 4, 0);
    expect(startPs.values[g2]).toBe(Math.ceil(8 * 1.05 * tau));
    const g3 = reserve(2, 16, 0);
    expect(startPs.values[g3]).toBe(Math.ceil(8 * 1.05 * tau) + Math.ceil(4 * 1.05 * tau));
    // Once the schedule has passed, a grant starts now.
    scheduler.runUntil(usToPs(10));
    expect(startPs.values[reserve(4, 4, 1)]).toBe(usToPs(10));
  });

  it("ACKs speculative data packets only", () => {
    const { part, packets, sent, chunk } = setup();
    const spec = packets.create({ srcHost: 6, dstHost: 3, flowId: 60, sizeBytes: 256, vl: 3 });
    chunk.values[spec] = 9;
    part.onArrive(spec);
    expect(sent).toHaveLength(1);
    expect(packets.kind(sent[0]!)).toBe("ack");
    expect(chunk.values[sent[0]!]).toBe(9);
    expect(packets.dstHost[sent[0]!]).toBe(6);
    part.onArrive(packets.create({ srcHost: 6, dstHost: 3, flowId: 60, sizeBytes: 256, vl: 0 }));
    expect(sent).toHaveLength(1);
    expect(part.counters()).toEqual({ reservationsGranted: 0, speculativeAcked: 1 });
  });
  it("in-order variant: discards the second copy of a packet, by flow and number, and counts late arrivals", () => {
    const context = testHostContext({ hostIndex: 3, lanes: LANES, mtuBytes: 256 });
    const part = new SrpInOrderReceiver(context, params.parse({ inOrder: true }));
    const { packets } = context;
    const psn = packets.column(COLUMN.psn, Int32Array);
    const arrive = (flowId: number, n: number | undefined) => {
      const p = packets.create({ srcHost: 1, dstHost: 3, flowId, sizeBytes: 256, vl: 0 });
      if (n !== undefined) psn.values[p] = n + 1;
      return part.discard(p);
    };
    expect([0, 2, 1, 2, 0, 3].map((n) => arrive(7, n))).toEqual([
      false,
      false,
      false, // late: 2 arrived before it
      true,
      true,
      false,
    ]);
    expect(arrive(8, 0)).toBe(false); // another flow counts on its own
    expect(arrive(7, undefined)).toBe(false); // not numbered: not SRP's
    expect(arrive(7, undefined)).toBe(false);
    expect(part.counters()).toMatchObject({ duplicatesDiscarded: 2, arrivedOutOfOrder: 1 });
    expect("discard" in new SrpReceiver(context, params.parse({}))).toBe(false);
  });
});
