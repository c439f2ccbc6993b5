import { type PacketId, type PacketInit, type PacketKind, Packets } from "@cclab/fabric";
import { testHostContext } from "@cclab/fabric/testing";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { createReceiverPart, receiverPartFactory } from "./receiver-part.js";

/** Every test part's packets (the parts read the packets they are handed here). */
const PACKETS = new Packets();

function receiver(controlPacketBytes = 64, hostIndex = 5) {
  const sent: PacketId[] = [];
  const context = testHostContext({
    packets: PACKETS,
    hostIndex,
    controlPacketBytes,
    sendControl: (packet) => sent.push(packet),
  });
  return { part: createReceiverPart(context), sent, scheduler: context.scheduler };
}

function arriving(fields: PacketInit): PacketId {
  return PACKETS.create({
    kind: "data",
    sizeBytes: 2074,
    srcHost: 2,
    dstHost: 5,
    flowId: 77,
    sl: 1,
    vl: 1,
    ...fields,
  });
}

const fields = (p: PacketId) => PACKETS.snapshot(p);

describe("receiver part", () => {
  test.prop([
    fc.integer({ min: 0, max: 63 }),
    fc.integer({ min: 0, max: 100_000 }),
    fc.integer({ min: 0, max: 15 }),
    fc.integer({ min: 0, max: 15 }),
    fc.integer({ min: 16, max: 256 }),
  ])(
    "a data packet with FECN and no BECN makes exactly one CNP back to its source",
    (srcHost, flowId, sl, vl, controlBytes) => {
      const { part, sent } = receiver(controlBytes);
      const data = arriving({ fecn: true, srcHost, flowId, sl, vl });
      part.onArrive?.(data);
      expect(sent).toHaveLength(1);
      expect(sent[0]).not.toBe(data);
      const cnp = fields(sent[0]!);
      expect(cnp.kind).toBe("cnp");
      expect(cnp.becn).toBe(true);
      expect(cnp.fecn).toBe(false);
      expect(cnp.dstHost).toBe(srcHost);
      expect(cnp.flowId).toBe(flowId);
      expect(cnp.sl).toBe(sl);
      expect(cnp.vl).toBe(vl);
      expect(cnp.sizeBytes).toBe(controlBytes);
      expect(cnp.payloadBytes).toBe(0);
      // The data packet itself is left as it arrived.
      expect(fields(data)).toMatchObject({ kind: "data", fecn: true, becn: false });
      expect(part.counters?.()).toEqual({ fecnReceived: 1, cnpSent: 1 });
    },
  );

  it("sends the CNP on the fabric's first control VL when it has one", () => {
    const sent: PacketId[] = [];
    const context = testHostContext({
      packets: PACKETS,
      hostIndex: 5,
      controlVls: [3, 4],
      sendControl: (packet) => sent.push(packet),
    });
    createReceiverPart(context).onArrive?.(arriving({ fecn: true, vl: 0 }));
    expect(fields(sent[0]!).vl).toBe(3);
  });

  it("answers every marked data packet, one CNP each, stamped now", () => {
    const { part, sent, scheduler } = receiver();
    const kind = scheduler.defineKind("arrive", (i) => {
      part.onArrive?.(arriving({ fecn: i % 2 === 0, flowId: i }));
    });
    for (let i = 0; i < 6; i++) scheduler.schedule(1000 * (i + 1), kind, i);
    scheduler.run();
    expect(sent.map((c) => fields(c).flowId)).toEqual([0, 2, 4]);
    expect(sent.map((c) => fields(c).createdPs)).toEqual([1000, 3000, 5000]);
    expect(part.counters?.()).toEqual({ fecnReceived: 3, cnpSent: 3 });
  });

  it("ignores FECN on control packets (ACK, CNP and others)", () => {
    const { part, sent } = receiver();
    const kinds: PacketKind[] = ["cnp", "ack", "nack", "grant", "x-other"];
    for (const kind of kinds) part.onArrive?.(arriving({ kind, fecn: true }));
    expect(sent).toHaveLength(0);
    expect(part.counters?.()).toEqual({ fecnReceived: 0, cnpSent: 0 });
  });

  it("ignores FECN when BECN is also set", () => {
    const { part, sent } = receiver();
    part.onArrive?.(arriving({ fecn: true, becn: true }));
    expect(sent).toHaveLength(0);
  });

  it("sends nothing for data without FECN", () => {
    const { part, sent } = receiver();
    part.onArrive?.(arriving({ fecn: false }));
    part.onArrive?.(arriving({ fecn: false, becn: true }));
    expect(sent).toHaveLength(0);
    expect(part.counters?.()).toEqual({ fecnReceived: 0, cnpSent: 0 });
  });

  it("the factory creates the part", () => {
    expect(receiverPartFactory.specVersion).toBe(2);
    const sent: PacketId[] = [];
    const part = receiverPartFactory.create(
      testHostContext({
        packets: PACKETS,
        hostCount: 2,
        uplinkRateGbps: 10,
        controlPacketBytes: 32,
        sendControl: (p) => sent.push(p),
      }),
    );
    part.onArrive?.(arriving({ fecn: true }));
    expect(sent.map((p) => fields(p).sizeBytes)).toEqual([32]);
  });
});
