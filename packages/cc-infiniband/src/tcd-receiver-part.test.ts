import { type PacketId, type PacketInit, type PacketKind, Packets } from "@cclab/fabric";
import { testHostContext } from "@cclab/fabric/testing";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { params } from "./params.js";
import {
  createReceiverPart,
  receiverPartFactory,
  receiverPartFactoryFor,
} from "./receiver-part.js";
import { TCD_CE, TCD_NONE, TCD_UE, tcdCodeColumn } from "./tcd.js";
import { tcdReceiverPartFactory } from "./tcd-receiver-part.js";

/** Packets of these tests only (the other receiver tests run without a `tcd.code` column). */
const PACKETS = new Packets();
/** The column a TCD switch part writes (the same one whoever asks for it first). */
const CODE = tcdCodeColumn(PACKETS);

function receiver(tcdReaction: boolean, controlPacketBytes = 64) {
  const sent: PacketId[] = [];
  const context = testHostContext({
    packets: PACKETS,
    hostIndex: 5,
    controlPacketBytes,
    sendControl: (packet) => sent.push(packet),
  });
  const part = receiverPartFactoryFor(params.parse({ tcdReaction })).create(context);
  return { part, sent };
}

/** A data packet from host 2 to host 5 with TCD code `code`. */
function arriving(code: number, fields: PacketInit = {}): PacketId {
  const p = PACKETS.create({
    kind: "data",
    sizeBytes: 2074,
    srcHost: 2,
    dstHost: 5,
    flowId: 77,
    sl: 1,
    vl: 1,
    ...fields,
  });
  CODE.values[p] = code;
  return p;
}

const fields = (p: PacketId) => PACKETS.snapshot(p);

describe("receiver part with tcdReaction", () => {
  it("returns a BECN with code 2 for a UE packet", () => {
    const { part, sent } = receiver(true);
    const data = arriving(TCD_UE);
    part.onArrive?.(data);
    expect(sent).toHaveLength(1);
    const cnp = sent[0]!;
    expect(fields(cnp)).toMatchObject({ kind: "cnp", becn: true, fecn: false, dstHost: 2 });
    expect(fields(cnp)).toMatchObject({ flowId: 77, sl: 1, vl: 1, sizeBytes: 64 });
    expect(CODE.values[cnp]).toBe(TCD_UE);
    // The data packet is left as it arrived.
    expect(CODE.values[data]).toBe(TCD_UE);
    expect(part.counters?.()).toEqual({
      fecnReceived: 0,
      cnpSent: 1,
      ceBecnSent: 0,
      ueBecnSent: 1,
    });
  });

  it("returns a BECN with code 3 for a FECN packet, whatever its code", () => {
    const { part, sent } = receiver(true);
    // CE as a TCD switch marks it (FECN and 3), and FECN alone (an IB CC switch, code 0).
    part.onArrive?.(arriving(TCD_CE, { fecn: true }));
    part.onArrive?.(arriving(TCD_NONE, { fecn: true }));
    expect(sent.map((c) => [fields(c).becn, CODE.values[c]])).toEqual([
      [true, TCD_CE],
      [true, TCD_CE],
    ]);
    expect(part.counters?.()).toEqual({
      fecnReceived: 2,
      cnpSent: 2,
      ceBecnSent: 2,
      ueBecnSent: 0,
    });
  });

  it("sends nothing for an unmarked data packet", () => {
    const { part, sent } = receiver(true);
    part.onArrive?.(arriving(TCD_NONE));
    part.onArrive?.(arriving(1)); // 01, "TCD-capable transport": no mark
    expect(sent).toHaveLength(0);
    expect(part.counters?.()).toEqual({
      fecnReceived: 0,
      cnpSent: 0,
      ceBecnSent: 0,
      ueBecnSent: 0,
    });
  });

  it("ignores UE and FECN on control packets and with BECN set, as FECN always was", () => {
    const { part, sent } = receiver(true);
    const kinds: PacketKind[] = ["cnp", "ack", "nack", "grant", "x-other"];
    for (const kind of kinds) {
      part.onArrive?.(arriving(TCD_UE, { kind }));
      part.onArrive?.(arriving(TCD_CE, { kind, fecn: true }));
    }
    part.onArrive?.(arriving(TCD_UE, { becn: true }));
    expect(sent).toHaveLength(0);
  });

  test.prop([
    fc.array(fc.record({ code: fc.constantFrom(0, 1, 2, 3), fecn: fc.boolean(), vl: fc.nat(7) }), {
      maxLength: 40,
    }),
    fc.constantFrom(undefined, 3),
  ])("answers each marked packet with one BECN of its code, in order", (arrivals, controlVl) => {
    const sent: PacketId[] = [];
    const part = tcdReceiverPartFactory.create(
      testHostContext({
        packets: PACKETS,
        controlVls: controlVl === undefined ? [] : [controlVl],
        sendControl: (packet) => sent.push(packet),
      }),
    );
    const expected: [number, number][] = [];
    arrivals.forEach((a, i) => {
      part.onArrive?.(arriving(a.code, { fecn: a.fecn, flowId: i, vl: a.vl }));
      const code = a.fecn || a.code === TCD_CE ? TCD_CE : a.code === TCD_UE ? TCD_UE : undefined;
      if (code !== undefined) expected.push([i, code]);
    });
    expect(sent.map((c) => [fields(c).flowId, CODE.values[c]])).toEqual(expected);
    expect(sent.every((c) => fields(c).vl === (controlVl ?? arrivals[fields(c).flowId]!.vl))).toBe(
      true,
    );
    const counters = part.counters?.() ?? {};
    expect(counters.cnpSent).toBe(expected.length);
    expect(counters.ueBecnSent).toBe(expected.filter(([, c]) => c === TCD_UE).length);
    expect(counters.ceBecnSent).toBe(expected.filter(([, c]) => c === TCD_CE).length);
    expect(counters.fecnReceived).toBe(arrivals.filter((a) => a.fecn).length);
  });
});

describe("receiver part without tcdReaction", () => {
  it("sends nothing for a UE packet, and a BECN without a code for a FECN one", () => {
    const { part, sent } = receiver(false);
    part.onArrive?.(arriving(TCD_UE));
    expect(sent).toHaveLength(0);
    part.onArrive?.(arriving(TCD_CE, { fecn: true }));
    expect(sent).toHaveLength(1);
    expect(CODE.values[sent[0]!]).toBe(TCD_NONE);
    // The counters are the plain receiver's, nothing added.
    expect(part.counters?.()).toEqual({ fecnReceived: 1, cnpSent: 1 });
  });

  it("is the plain receiver, which makes no tcd.code column", () => {
    expect(receiverPartFactoryFor(params.parse({}))).toBe(receiverPartFactory);
    const packets = new Packets();
    createReceiverPart(testHostContext({ packets }));
    // Had the part made the column (a Uint8Array), asking for another type would throw.
    expect(() => packets.column("tcd.code", Float64Array)).not.toThrow();
  });
});

describe("declarations", () => {
  it("with tcdReaction: reads FECN and tcd.code, declares writing only BECN", () => {
    const factory = receiverPartFactoryFor(params.parse({ tcdReaction: true }));
    expect(factory).toBe(tcdReceiverPartFactory);
    expect(factory.reads).toEqual(["fecn", "tcd.code"]);
    // It writes tcd.code on its CNPs, but declared, that write would count as the writer its
    // own read needs, and the network could no longer refuse a fabric without a TCD switch.
    expect(factory.writes).toEqual(["becn"]);
    expect(factory.specVersion).toBe("^3.0.0");
  });

  it("without: as before", () => {
    expect(receiverPartFactory.reads).toEqual(["fecn"]);
    expect(receiverPartFactory.writes).toEqual(["becn"]);
    expect(receiverPartFactory.specVersion).toBe(2);
  });
});
