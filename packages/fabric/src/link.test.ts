import { Scheduler, serializationPs } from "@cclab/core-des";
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
