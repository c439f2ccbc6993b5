import { Scheduler, serializationPs } from "@cclab/core-des";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { LinkSet } from "./link.js";
import { Packets } from "./packet.js";

describe("Link, a delay line", () => {
  it("hands packets over in order at header or tail time, with one event per busy link", () => {
    const scheduler = new Scheduler();
    const packets = new Packets();
    const links = new LinkSet(scheduler, packets, 1, "credit");
    const link = links.add(10, 50_000);
    const got: [number, number, number][] = [];
    link.connect(
      { flowControlChanged: () => {} },
      0,
      {
        receivePacket: (p, _port, tail) => got.push([packets.sizeBytes[p]!, scheduler.nowPs, tail]),
      },
      3,
      { cutThroughBytes: 64, processingPs: 7 },
    );
    const a = packets.create({ sizeBytes: 1000 });
    const b = packets.create({ sizeBytes: 32 });
    link.transmit(a, serializationPs(1000, 10));
    expect(scheduler.pending).toBe(1);
    scheduler.run({ untilPs: serializationPs(1000, 10) });
    link.transmit(b, scheduler.nowPs + serializationPs(32, 10));
    scheduler.run();
    const tailB = serializationPs(1000, 10) + serializationPs(32, 10) + 50_000;
    expect(got).toEqual([
      [1000, 50_000 + serializationPs(64, 10) + 7, serializationPs(1000, 10) + 50_000],
      // A packet shorter than the header is usable only when all of it is in.
      [32, tailB + 7, tailB],
    ]);
  });

  it("returns credits one latency later and pause frames after 64 B plus latency", () => {
    const scheduler = new Scheduler();
    const links = new LinkSet(scheduler, new Packets(), 2, "credit");
    const link = links.add(100, 1_000);
    const credit = link.flow;
    const seen: number[] = [];
    link.connect(
      { flowControlChanged: () => seen.push(scheduler.nowPs) },
      0,
      { receivePacket: () => {} },
      0,
      {
        cutThroughBytes: Number.POSITIVE_INFINITY,
        processingPs: 0,
      },
    );
    link.returnCredits(1, 5);
    expect(link.creditsReturning[1]).toBe(5);
    scheduler.run();
    expect(credit.credits[1]).toBe(5);
    expect(link.creditsReturning[1]).toBe(0);
    expect(seen).toEqual([1_000]);

    const pfcLinks = new LinkSet(scheduler, new Packets(), 2, "pfc");
    const link2 = pfcLinks.add(100, 1_000);
    const pfc = link2.flow;
    link2.connect(
      { flowControlChanged: () => seen.push(scheduler.nowPs) },
      0,
      { receivePacket: () => {} },
      0,
      {
        cutThroughBytes: Number.POSITIVE_INFINITY,
        processingPs: 0,
      },
    );
    const t0 = scheduler.nowPs;
    link2.sendPause(0, true);
    scheduler.run();
    expect(pfc.paused[0]).toBe(1);
    expect(seen.at(-1)).toBe(t0 + serializationPs(64, 100) + 1_000);
  });
});

// `linkCount` store-and-forward links at 25 Gb/s on a PFC fabric, each recording what it
// delivers as (packet, time, tail time) in `got[link]`.
function recordingLinks(linkCount: number, latencyPs: (l: number) => number, processingPs: number) {
  const scheduler = new Scheduler();
  const packets = new Packets(16);
  const links = new LinkSet(scheduler, packets, 1, "pfc");
  const got: [number, number, number][][] = [];
  for (let l = 0; l < linkCount; l++) {
    links.add(25, latencyPs(l));
    got.push([]);
    links.connect(
      l,
      { flowControlChanged: () => {} },
      0,
      { receivePacket: (p, _port, tail) => got[l]!.push([p, scheduler.nowPs, tail]) },
      0,
      { cutThroughBytes: Number.POSITIVE_INFINITY, processingPs },
    );
  }
  return { scheduler, packets, links, got };
}

describe("LinkSet, many links sharing one reverse-channel pool", () => {
  test.prop(
    [
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.record({ link: fc.nat(), sizeBytes: fc.integer({ min: 1, max: 4096 }) }), {
        minLength: 1100,
        maxLength: 3000,
      }),
    ],
    { numRuns: 25 },
  )(
    "delivers the packets of each link in order, each at its own tail time, past the first 1024 ids",
    (linkCount, sends) => {
      const { scheduler, packets, links, got } = recordingLinks(
        linkCount,
        (l) => 1_000 + 300 * l,
        5,
      );
      // Every packet is sent at time 0, back to back on its link: the k-th one ends after the
      // serialization of all up to it.
      const busyUntil = new Array<number>(linkCount).fill(0);
      const want: [number, number, number][][] = got.map(() => []);
      for (const send of sends) {
        const l = send.link % linkCount;
        const p = packets.create({ sizeBytes: send.sizeBytes });
        busyUntil[l]! += serializationPs(send.sizeBytes, 25);
        links.transmit(l, p, busyUntil[l]!);
        const tail = busyUntil[l]! + 1_000 + 300 * l;
        want[l]!.push([p, tail + 5, tail]);
      }
      scheduler.run();
      expect(got).toEqual(want);
    },
  );

  test.prop(
    [
      fc.integer({ min: 1, max: 3 }),
      fc.array(
        fc.record({
          link: fc.nat(),
          sizeBytes: fc.integer({ min: 1, max: 4096 }),
          gapPs: fc.integer({ min: 0, max: 400_000 }),
        }),
        { minLength: 50, maxLength: 600 },
      ),
    ],
    { numRuns: 40 },
  )(
    "keeps each link's packets in order while deliveries and sends interleave",
    (linkCount, sends) => {
      const { scheduler, packets, links, got } = recordingLinks(linkCount, () => 1_000_000, 0);
      const busyUntil = new Array<number>(linkCount).fill(0);
      const want: [number, number, number][][] = got.map(() => []);
      let now = 0;
      for (const send of sends) {
        now += send.gapPs;
        scheduler.run({ untilPs: now });
        const l = send.link % linkCount;
        const p = packets.create({ sizeBytes: send.sizeBytes });
        busyUntil[l] = Math.max(busyUntil[l]!, now) + serializationPs(send.sizeBytes, 25);
        links.transmit(l, p, busyUntil[l]!);
        want[l]!.push([p, busyUntil[l]! + 1_000_000, busyUntil[l]! + 1_000_000]);
      }
      scheduler.run();
      expect(got).toEqual(want);
    },
  );

  test.prop(
    [
      fc.integer({ min: 17, max: 40 }),
      fc.array(
        fc.record({
          link: fc.nat(),
          vl: fc.nat({ max: 2 }),
          atPs: fc.nat({ max: 5_000 }),
          action: fc.oneof(
            fc.record({ credits: fc.integer({ min: 1, max: 40 }) }),
            fc.record({ pause: fc.boolean() }),
          ),
        }),
        { minLength: 1, maxLength: 120 },
      ),
    ],
    { numRuns: 60 },
  )(
    "delivers every link's credits and pause frames to that link, also after the columns grew",
    (linkCount, ops) => {
      const scheduler = new Scheduler();
      const links = new LinkSet(scheduler, new Packets(), 3, "credit");
      const first = links.add(100, 700);
      // A view taken before the columns grow (16 links at first) must still see the state.
      const firstFlow = first.flow;
      for (let l = 1; l < linkCount; l++) links.add(100, 100 + 37 * l);
      const changed = new Array<number>(linkCount).fill(0);
      for (let l = 0; l < linkCount; l++) {
        links.connect(
          l,
          { flowControlChanged: () => changed[l]!++ },
          0,
          { receivePacket: () => {} },
          0,
          { cutThroughBytes: Number.POSITIVE_INFINITY, processingPs: 0 },
        );
      }
      const credits = new Array<number>(linkCount * 3).fill(0);
      const paused = new Array<number>(linkCount * 3).fill(0);
      const opKind = scheduler.defineKind("test: op", (i) => {
        const op = ops[i]!;
        const l = op.link % linkCount;
        if ("credits" in op.action) links.returnCredits(l, op.vl, op.action.credits);
        else links.sendPause(l, op.vl, op.action.pause);
      });
      const order = ops.map((op, i) => ({ op, i })).sort((a, b) => a.op.atPs - b.op.atPs);
      for (const { op, i } of order) {
        scheduler.schedule(op.atPs, opKind, i);
        const k = (op.link % linkCount) * 3 + op.vl;
        if ("credits" in op.action) credits[k]! += op.action.credits;
        // The reverse channel of a link is in order: the last frame sent for a VL holds.
        else paused[k] = op.action.pause ? 1 : 0;
      }
      scheduler.run();
      for (let l = 0; l < linkCount; l++) {
        for (let vl = 0; vl < 3; vl++) {
          const k = l * 3 + vl;
          expect(links.flow.credits[k], `link ${l} VL ${vl} credits`).toBe(credits[k]);
          expect(links.flow.paused[k], `link ${l} VL ${vl} paused`).toBe(paused[k]);
          expect(links.creditsReturning[k]).toBe(0);
          // The set's flow-control rules read the same columns.
          expect(links.canSend(l, vl, 64 * credits[k]!)).toBe(true);
          expect(links.canSend(l, vl, 64 * credits[k]! + 1)).toBe(false);
        }
        const touched = ops.some((op) => op.link % linkCount === l);
        expect(changed[l]! > 0).toBe(touched);
      }
      expect([...firstFlow.credits]).toEqual(credits.slice(0, 3));
    },
  );

  it("takes credits and keeps blocked time per link and VL", () => {
    const links = new LinkSet(new Scheduler(), new Packets(), 2, "credit");
    for (let l = 0; l < 20; l++) links.add(100, 1_000);
    links.flow.credits[19 * 2 + 1] = 10;
    expect(links.canSend(19, 1, 640)).toBe(true);
    links.consume(19, 1, 600); // 10 blocks
    expect(links.canSend(19, 1, 1)).toBe(false);
    expect(links.flow.credits[19 * 2]).toBe(0);
    links.markBlocked(19, 1, 100);
    links.markBlocked(19, 1, 150); // already blocked: no new OFF period
    links.markUnblocked(19, 1, 400);
    links.markBlocked(19, 1, 1_000);
    const state = links.flowState(19);
    expect(state.offTransitions[1]).toBe(2);
    expect(state.blockedPsUntil(1, 1_250)).toBe(300 + 250);
    expect(state.isBlocked(1)).toBe(true);
    expect(links.flowState(18).blockedPsUntil(1, 1_250)).toBe(0);
  });
});

describe("ON/OFF history of a link's transmitter", () => {
  it("under PFC counts the pauses that take effect and times the last resume at its arrival", () => {
    const scheduler = new Scheduler();
    const links = new LinkSet(scheduler, new Packets(), 2, "pfc");
    const link = links.add(10, 50_000);
    link.connect({ flowControlChanged: () => {} }, 0, { receivePacket: () => {} }, 0, {
      cutThroughBytes: Number.POSITIVE_INFINITY,
      processingPs: 0,
    });
    const delay = serializationPs(64, 10) + 50_000;
    expect(link.flow.lastOnPs(1)).toBe(Number.NEGATIVE_INFINITY);
    link.sendPause(1, true);
    link.sendPause(1, true); // a pause while paused starts no new OFF period
    scheduler.run({ untilPs: 100_000 });
    link.sendPause(1, false);
    scheduler.run();
    expect(link.flow.offCount(1)).toBe(1);
    expect(link.flow.lastOnPs(1)).toBe(100_000 + delay);
    expect(link.flow.offCount(0)).toBe(0);
  });

  it("under credits counts starvations and times the ON at the next packet's start", () => {
    const scheduler = new Scheduler();
    const links = new LinkSet(scheduler, new Packets(), 1, "credit");
    const link = links.add(10, 50_000);
    links.markBlocked(link.index, 0, 1_000);
    links.markBlocked(link.index, 0, 2_000); // still the same OFF period
    links.markUnblocked(link.index, 0, 7_000);
    links.markUnblocked(link.index, 0, 9_000); // not OFF: nothing changes
    expect(link.flow.offCount(0)).toBe(1);
    expect(link.flow.lastOnPs(0)).toBe(7_000);
    expect(link.flow.blockedPsUntil(0, 10_000)).toBe(6_000);
  });
});
