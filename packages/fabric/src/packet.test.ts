import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { DATA_KIND, Ecn, NO_PACKET, Packets } from "./packet.js";
import { MAX_VLS } from "./vl-limit.js";

describe("Packets, the packet store", () => {
  it("gives a new packet every field at its default, also when the id is reused", () => {
    const packets = new Packets(1);
    const p = packets.create({
      kind: "cnp",
      sizeBytes: 64,
      vl: 3,
      fecn: true,
      becn: true,
      ecn: Ecn.congestion,
      lastOfMessage: true,
      createdPs: 2 ** 40,
      control: { grant: 5 },
    });
    packets.outPort[p] = 7;
    packets.hops[p] = 2;
    packets.next[p] = 4;
    packets.free(p);
    const q = packets.alloc();
    expect(q).toBe(p);
    expect(packets.snapshot(q)).toEqual({
      id: q,
      kind: "data",
      sizeBytes: 0,
      payloadBytes: 0,
      vl: 0,
      sl: 0,
      srcHost: 0,
      dstHost: 0,
      flowId: 0,
      messageId: 0,
      seqInMessage: 0,
      lastOfMessage: false,
      messageBytes: 0,
      outPort: -1,
      hops: 0,
      fecn: false,
      becn: false,
      ecn: Ecn.notCapable,
      createdPs: 0,
      injectedPs: 0,
      control: undefined,
    });
    expect(packets.next[q]).toBe(NO_PACKET);
    expect(packets.kindCode[q]).toBe(DATA_KIND);
  });

  it("holds VLs and SLs up to MAX_VLS − 1 (16-bit columns), also when the store grows", () => {
    const packets = new Packets(1);
    const p = packets.create({ vl: MAX_VLS - 1, sl: 700 });
    for (let k = 0; k < 4; k++) packets.alloc(); // grows the store
    expect(packets.snapshot(p)).toMatchObject({ vl: 1023, sl: 700 });
    expect(packets.snapshot(packets.copy(p))).toMatchObject({ vl: 1023, sl: 700 });
  });

  it("replies to a data packet's sender on its flow and SL, also when the store grows", () => {
    // Capacity 1: the reply's alloc() grows the store, so the data packet's fields are read
    // from the new arrays.
    const packets = new Packets(1);
    const data = packets.create({
      sizeBytes: 1026,
      payloadBytes: 1000,
      srcHost: 5,
      dstHost: 9,
      flowId: 123,
      sl: 2,
      vl: 2,
      fecn: true,
      ecn: Ecn.congestion,
      createdPs: 7,
    });
    const reply = packets.replyTo(data, packets.kindCodeOf("ack"), 64, 4, 2 ** 40);
    expect(packets.snapshot(reply)).toMatchObject({
      kind: "ack",
      sizeBytes: 64,
      payloadBytes: 0,
      srcHost: 0,
      dstHost: 5,
      flowId: 123,
      sl: 2,
      vl: 4,
      fecn: false,
      becn: false,
      ecn: Ecn.notCapable,
      createdPs: 2 ** 40,
    });
    expect(packets.snapshot(data)).toMatchObject({ dstHost: 9, flowId: 123, fecn: true });
  });

  it("copies a packet with every field and scheme column, unrouted and in no queue", () => {
    const packets = new Packets(1);
    const chunk = packets.column("x.chunk", Int32Array);
    const data = packets.create({
      sizeBytes: 282,
      payloadBytes: 256,
      srcHost: 5,
      dstHost: 9,
      flowId: 123,
      messageId: 77,
      seqInMessage: 3,
      lastOfMessage: true,
      messageBytes: 1000,
      sl: 2,
      vl: 3,
      becn: true,
      ecn: Ecn.congestion,
      createdPs: 7,
      injectedPs: 9,
    });
    chunk.values[data] = 41;
    packets.outPort[data] = 4;
    packets.hops[data] = 2;
    packets.next[data] = 17;
    const copy = packets.copy(data);
    expect(copy).not.toBe(data);
    expect(packets.snapshot(copy)).toEqual({
      ...packets.snapshot(data),
      id: copy,
      outPort: -1,
      hops: 0,
    });
    expect(packets.column("x.chunk", Int32Array).values[copy]).toBe(41);
    expect(packets.next[copy]).toBe(NO_PACKET);
  });

  it("names kinds by code, gives x- kinds codes of their own and rejects others", () => {
    const packets = new Packets();
    const p = packets.create({ kind: "x-ccfit-stop" });
    const q = packets.create({ kind: "x-ccfit-go" });
    expect([packets.kind(p), packets.kind(q)]).toEqual(["x-ccfit-stop", "x-ccfit-go"]);
    expect(packets.kindCodeOf("x-ccfit-stop")).toBe(packets.kindCode[p]);
    expect(packets.kindCode[p]).not.toBe(packets.kindCode[q]);
    packets.setKind(p, "grant");
    expect(packets.kind(p)).toBe("grant");
    expect(() => packets.kindCodeOf("gossip" as "data")).toThrow(/unknown packet kind "gossip"/);
  });

  test.prop([fc.array(fc.oneof(fc.constant("alloc" as const), fc.nat()), { maxLength: 300 })], {
    numRuns: 100,
  })("keeps every live packet's fields through growth and reuse", (ops) => {
    const packets = new Packets(1);
    const live = new Map<number, number>(); // id → its payload
    let stamp = 0;
    for (const op of ops) {
      if (op === "alloc" || live.size === 0) {
        const p = packets.create({ payloadBytes: ++stamp, flowId: 2 ** 33 + stamp });
        expect(live.has(p)).toBe(false);
        live.set(p, stamp);
      } else {
        const p = [...live.keys()][op % live.size]!;
        packets.free(p);
        live.delete(p);
      }
      expect(packets.live).toBe(live.size);
    }
    for (const [p, payload] of live) {
      expect([packets.payloadBytes[p], packets.flowId[p]]).toEqual([payload, 2 ** 33 + payload]);
    }
  });
});

describe("scheme columns", () => {
  it("are one column per name, grown with the store, and start at 0 for every new packet", () => {
    const packets = new Packets(2);
    const a = packets.column("toy.ttwPs", Float64Array);
    expect(packets.column("toy.ttwPs", Float64Array)).toBe(a);
    const ids = Array.from({ length: 5 }, () => packets.alloc()); // grows past 2
    ids.forEach((p, k) => {
      a.values[p] = k + 0.5;
    });
    expect(ids.map((p) => a.values[p])).toEqual([0.5, 1.5, 2.5, 3.5, 4.5]);
    packets.free(ids[1]!);
    const again = packets.alloc();
    expect(again).toBe(ids[1]);
    expect(a.values[again]).toBe(0);
  });

  it("refuse a name without the scheme's prefix, and a second type for one name", () => {
    const packets = new Packets();
    packets.column("toy.count", Int32Array);
    expect(() => packets.column("toy.count", Float64Array)).toThrow(
      'packet column "toy.count" is a Int32Array; asked for as a Float64Array',
    );
    expect(() => packets.column("count" as `${string}.${string}`, Int32Array)).toThrow(
      /must be dotted, with the scheme's prefix/,
    );
  });
});
