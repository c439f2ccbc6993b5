import type { Scheduler } from "@cclab/core-des";
import { FROM_OUTPUT_BUFFER, FROM_SWITCH_CONTROL, Packets } from "@cclab/fabric";
import { idlePort, testSwitchContext } from "@cclab/fabric/testing";
import { describe, expect, it } from "vitest";
import { EgressMeter, EgressQueues } from "./egress-meter.js";

describe("EgressQueues", () => {
  it("keeps the time-weighted mean and the maximum of each bin, the last bin partial", () => {
    const q = new EgressQueues(2, 2, 100);
    q.change(1, 0, 1000, 10);
    q.change(1, 0, 500, 30);
    q.change(1, 0, -1000, 150);
    q.change(1, 0, -500, 220);
    expect(q.bytesOf(1, 0)).toBe(0);
    const [s, ...rest] = q.series(250);
    expect(rest).toEqual([]);
    expect([s!.port, s!.vl]).toEqual([1, 0]);
    // Bin 0: 1000 B over [10, 30), 1500 B over [30, 100). Bin 1: 1500 B for 50 ps, 500 B for
    // 50. Bin 2 (50 ps to the end): 500 B for 20 ps.
    expect([...s!.meanBytes]).toEqual([(1000 * 20 + 1500 * 70) / 100, 1000, (500 * 20) / 50]);
    expect([...s!.maxBytes]).toEqual([1500, 1500, 500]);
  });

  it("extends what a queue holds to the end of the run, across bins without events", () => {
    const q = new EgressQueues(1, 1, 100);
    q.change(0, 0, 64, 50);
    // A query changes nothing: asking twice, or earlier then later, gives the same.
    expect([...q.series(350)[0]!.meanBytes]).toEqual([32, 64, 64, 64]);
    expect([...q.series(350)[0]!.maxBytes]).toEqual([64, 64, 64, 64]);
    q.change(0, 0, -64, 420);
    expect([...q.series(500)[0]!.meanBytes]).toEqual([32, 64, 64, 64, 12.8]);
  });

  it("counts a packet that comes and goes at one instant in its bin's maximum only", () => {
    const q = new EgressQueues(1, 1, 100);
    q.change(0, 0, 1000, 120);
    q.change(0, 0, -1000, 120);
    const [s] = q.series(200);
    expect([...s!.meanBytes]).toEqual([0, 0]);
    expect([...s!.maxBytes]).toEqual([0, 1000]);
  });

  it("grows its bins for a long run", () => {
    const q = new EgressQueues(1, 1, 10);
    q.change(0, 0, 100, 0);
    q.change(0, 0, -100, 10_000);
    const s = q.series(10_010)[0]!;
    expect(s.meanBytes).toHaveLength(1001);
    expect(s.meanBytes.slice(0, 1000).every((m) => m === 100)).toBe(true);
    expect(s.meanBytes[1000]).toBe(0);
  });
});

describe("the meter's switch part", () => {
  const setup = (outputBuffered: boolean) => {
    const clock = { nowPs: 0 };
    const packets = new Packets();
    const meter = new EgressMeter(100, outputBuffered);
    const part = meter.scheme().switchPart!.create(
      testSwitchContext({
        packets,
        switchIndex: 2,
        port: () => idlePort(2),
        scheduler: clock as unknown as Scheduler,
      }),
    );
    const packet = (out: number, vl: number, sizeBytes: number) => {
      const id = packets.create({ kind: "data", sizeBytes, vl });
      packets.outPort[id] = out;
      return id;
    };
    const bytes = (out: number, vl: number) => meter.of(2)!.bytesOf(out, vl);
    return { clock, part, packet, bytes, meter };
  };

  it("without output buffers: joins at enqueue, leaves at the grant (or a drop at the head)", () => {
    const { part, packet, bytes } = setup(false);
    const a = packet(3, 1, 1026);
    const b = packet(3, 1, 64);
    part.onEnqueue!(a, 0);
    part.onEnqueue!(b, 2);
    expect(bytes(3, 1)).toBe(1090);
    expect(bytes(3, 0)).toBe(0);
    part.onDequeue!(a, 0); // granted: it starts on the link at this instant
    part.onTransmit?.(a, 0, 3);
    expect(bytes(3, 1)).toBe(64);
    part.onDequeue!(b, 2); // dropped at the head: it never starts on the link
    expect(bytes(3, 1)).toBe(0);
  });

  it("with output buffers: stays queued through the crossing, leaves when it starts on the link", () => {
    const { clock, part, packet, bytes, meter } = setup(true);
    const a = packet(0, 0, 1000);
    const control = packet(0, 1, 64);
    part.onEnqueue!(a, 1);
    clock.nowPs = 40;
    part.onDequeue?.(a, 1); // crosses into the output buffer: still waiting for the link
    expect(bytes(0, 0)).toBe(1000);
    part.onTransmit!(control, FROM_SWITCH_CONTROL, 0); // the switch's own: never queued
    expect(bytes(0, 1)).toBe(0);
    clock.nowPs = 90;
    part.onTransmit!(a, FROM_OUTPUT_BUFFER, 0);
    expect(bytes(0, 0)).toBe(0);
    const [s, ...rest] = meter.of(2)!.series(100);
    expect(rest).toEqual([]);
    expect([...s!.meanBytes]).toEqual([900]);
    expect([...s!.maxBytes]).toEqual([1000]);
  });

  it("observes only: it has no counters and none of the hooks that act on the switch", () => {
    const { part } = setup(false);
    expect(part.dropAtHead).toBeUndefined();
    expect(part.createQueueSet).toBeUndefined();
    expect(part.counters).toBeUndefined();
    expect(part.onLinkControl).toBeUndefined();
  });
});
