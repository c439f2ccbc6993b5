import { nsToPs, usToPs } from "@cclab/core-des";
import { NAMED_PACKET_KINDS, type PacketId } from "@cclab/fabric";
import { testHostContext } from "@cclab/fabric/testing";
import { describe, expect, it } from "vitest";
import { COLUMN, REPLY_LANE, RESERVATION_LANE, SPECULATIVE_LANE } from "./lanes.js";
import { params } from "./params.js";
import { SrpSender } from "./sender-part.js";

const LANES = { [RESERVATION_LANE]: 1, [REPLY_LANE]: 2, [SPECULATIVE_LANE]: 3 };
const FLOW = { flowId: 42, srcHost: 0, dstHost: 5, sl: 0 };

function setup(input: Record<string, unknown> = {}) {
  const control: PacketId[] = [];
  const resent: { packet: PacketId; atPs: number }[] = [];
  const moves: number[] = [];
  const context = testHostContext({
    lanes: LANES,
    uplinkRateGbps: 10,
    mtuBytes: 256,
    dataHeaderBytes: 0,
    sendControl: (p) => control.push(p),
    resend: (p) => resent.push({ packet: p, atPs: context.scheduler.nowPs }),
    setFlowVl: (_flow, vl) => moves.push(vl),
  });
  const sender = new SrpSender(context, params.parse({ nMinPackets: 2, nMaxPackets: 4, ...input }));
  const gate = sender.openFlow(FLOW);
  const { packets, scheduler } = context;
  const col = (name: `${string}.${string}`) => packets.column(name, Float64Array);
  const chunk = packets.column(COLUMN.chunk, Int32Array);
  let vl = 0;
  const send = (): PacketId => {
    vl = moves.length === 0 ? 0 : moves[moves.length - 1]!;
    const p = packets.create({ srcHost: 0, dstHost: 5, flowId: 42, sizeBytes: 256, vl });
    packets.payloadBytes[p] = 256;
    gate.onSent(p);
    return p;
  };
  const reply = (
    kind: "grant" | "ack" | "nack",
    fields: { seq?: number; startPs?: number; dropped?: PacketId; psn?: number },
  ) => {
    const p = packets.create({ srcHost: 5, dstHost: 0, flowId: 42, sizeBytes: 8, vl: 2 });
    packets.kindCode[p] = NAMED_PACKET_KINDS.indexOf(kind);
    if (fields.seq !== undefined) chunk.values[p] = fields.seq;
    if (fields.startPs !== undefined) col(COLUMN.startPs).values[p] = fields.startPs;
    if (fields.dropped !== undefined)
      packets.column(COLUMN.dropped, Int32Array).values[p] = fields.dropped;
    if (fields.psn !== undefined) packets.column(COLUMN.psn, Int32Array).values[p] = fields.psn + 1;
    sender.onControl(p);
  };
  const reservations = () =>
    control.map((r) => ({
      n: packets.column(COLUMN.packets, Int32Array).values[r],
      seq: chunk.values[r],
      vl: packets.vl[r],
      kind: packets.kind(r),
    }));
  return {
    sender,
    gate,
    packets,
    scheduler,
    control,
    resent,
    moves,
    send,
    reply,
    reservations,
    chunk,
  };
}

describe("SRP send queue", () => {
  it("reserves each chunk of at most n_max packets, speculates until the grant, then waits for t_s", () => {
    const t = setup();
    t.gate.onMessage(10 * 256); // chunks of 4, 4, 2 packets
    expect(t.reservations()).toEqual([{ n: 4, seq: 0, vl: 1, kind: "reservation" }]);
    expect(t.moves).toEqual([3]); // onto the speculative lane
    expect(t.gate.nextSendPs(0)).toBe(0);
    const p0 = t.send();
    t.send();
    expect(t.chunk.values[p0]).toBe(0);
    expect(t.sender.speculativeSent).toBe(2);
    t.scheduler.runUntil(nsToPs(800));
    t.reply("grant", { seq: 0, startPs: usToPs(5) });
    expect(t.moves).toEqual([3, 0]); // back on its own lane
    expect(t.gate.windowOpen()).toBe(true);
    expect(t.gate.nextSendPs(nsToPs(800))).toBe(usToPs(5));
    t.scheduler.runUntil(usToPs(5));
    t.send();
    expect(t.reservations()).toHaveLength(1);
    t.send(); // the chunk's 4th packet: the next chunk is reserved at once
    expect(t.sender.reservedSent).toBe(2);
    expect(t.reservations()[1]).toEqual({ n: 4, seq: 1, vl: 1, kind: "reservation" });
    expect(t.moves).toEqual([3, 0, 3]);
    // ACKs of the first chunk's speculative packets arrive late: nothing else changes.
    t.reply("ack", { seq: 0 });
    t.reply("ack", { seq: 0 });
    expect(t.sender.acksReceived).toBe(2);
    expect(t.resent).toEqual([]);
  });

  it("stops speculating on a NACK and resends the packet on its own lane at the grant's start", () => {
    const t = setup();
    t.gate.onMessage(4 * 256);
    const p0 = t.send();
    t.send();
    t.scheduler.runUntil(nsToPs(500));
    t.reply("nack", { dropped: p0 });
    expect(t.gate.windowOpen()).toBe(false); // held until the grant
    expect(t.packets.vl[p0]).toBe(0);
    expect(t.resent).toEqual([]);
    t.scheduler.runUntil(nsToPs(900));
    t.reply("grant", { seq: 0, startPs: usToPs(3) });
    expect(t.gate.windowOpen()).toBe(true);
    expect(t.resent).toEqual([]);
    t.scheduler.runUntil(usToPs(4));
    expect(t.resent).toEqual([{ packet: p0, atPs: usToPs(3) }]);
    // A NACK after the start time: the packet goes again at once.
    t.send();
    t.send();
    const late = t.packets.create({ srcHost: 0, dstHost: 5, flowId: 42, sizeBytes: 256, vl: 3 });
    t.chunk.values[late] = 0;
    t.reply("nack", { dropped: late });
    expect(t.resent.map((r) => r.packet)).toEqual([p0, late]);
    expect(t.sender.counters()).toMatchObject({ nacksReceived: 2, retransmitted: 2 });
  });

  it("lets messages shorter than n_min bypass SRP on the flow's own lane", () => {
    const t = setup({ nMinPackets: 3 });
    t.gate.onMessage(2 * 256 - 10); // 2 packets
    expect(t.control).toEqual([]);
    expect(t.moves).toEqual([]);
    t.send();
    t.send();
    expect(t.sender.bypassSent).toBe(2);
    t.gate.onMessage(3 * 256); // reserved
    expect(t.reservations()).toEqual([{ n: 3, seq: 0, vl: 1, kind: "reservation" }]);
  });
  it("in-order variant: at t_s resends every outstanding speculative packet, in the flow's order, as a copy", () => {
    const t = setup({ inOrder: true });
    const psn = t.packets.column(COLUMN.psn, Int32Array);
    t.gate.onMessage(4 * 256);
    const [p0, p1, p2] = [t.send(), t.send(), t.send()];
    expect([p0, p1, p2].map((p) => psn.values[p])).toEqual([1, 2, 3]); // numbers + 1
    const live = t.packets.live;
    // p0 is dropped before the grant: it goes again itself, its copy is let go.
    t.reply("nack", { dropped: p0 });
    // p1 arrives before t_s: its copy is let go.
    t.reply("ack", { seq: 0, psn: 1 });
    expect(t.packets.live).toBe(live - 2 + 2); // two copies freed, the two replies allocated
    t.reply("grant", { seq: 0, startPs: usToPs(3) });
    expect(t.resent).toEqual([]);
    t.scheduler.runUntil(usToPs(4));
    // At t_s: p0 itself, then a copy of p2 (still outstanding), both on the flow's own lane.
    expect(t.resent.map((r) => r.atPs)).toEqual([usToPs(3), usToPs(3)]);
    const [first, copy] = t.resent.map((r) => r.packet);
    expect(first).toBe(p0);
    expect(copy).not.toBe(p2);
    expect(psn.values[copy!]).toBe(3);
    expect([t.packets.flowId[copy!], t.packets.payloadBytes[copy!]]).toEqual([42, 256]);
    expect(t.packets.vl[copy!]).toBe(0);
    // p2 is NACKed after its copy went: the dropped packet is freed, not sent a third time.
    const before = t.packets.live;
    t.reply("nack", { dropped: p2 });
    expect(t.resent).toHaveLength(2);
    expect(t.packets.live).toBe(before); // the NACK allocated, p2 freed
    expect(t.sender.counters()).toMatchObject({
      nacksReceived: 2,
      retransmitted: 1,
      copiesSent: 1,
      nacksCoveredByCopy: 1,
    });
  });

  it("in-order variant: a packet ACKed between the grant and t_s is not copied", () => {
    const t = setup({ inOrder: true });
    t.gate.onMessage(4 * 256);
    t.send();
    t.send();
    t.reply("grant", { seq: 0, startPs: usToPs(3) });
    t.reply("ack", { seq: 0, psn: 0 });
    t.scheduler.runUntil(usToPs(4));
    expect(t.resent).toHaveLength(1);
    expect(t.packets.column(COLUMN.psn, Int32Array).values[t.resent[0]!.packet]).toBe(2);
  });
});
