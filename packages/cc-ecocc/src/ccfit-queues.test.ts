import { NO_PACKET, type PacketId } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { queueHarness } from "../test/queue-harness.js";
import { NfqQueues } from "./ccfit-queues.js";

/** One input of a 4-port CCFIT switch: detection 2, High 2 / Low 1, Stop 3 / Go 1. */
function setup(hotQueues = 2) {
  const h = queueHarness(4);
  const thresholds = {
    detectPackets: 2,
    highPackets: 2,
    lowPackets: 1,
    stopPackets: 3,
    goPackets: 1,
  };
  const queues = new NfqQueues(h.context, hotQueues, h.host, thresholds, 0);
  const arrive = (out: number, dst: number): PacketId => {
    const p = h.packet(out, dst);
    queues.enqueue(p);
    return p;
  };
  return { ...h, queues, arrive };
}

describe("NfqQueues (CCFIT input port)", () => {
  it("keeps one FIFO: a head for a busy output blocks the packets behind it (HoL blocking)", () => {
    const s = setup();
    const a = s.arrive(1, 5);
    s.arrive(2, 6);
    expect(s.queues.headFor(2)).toBe(NO_PACKET);
    expect(s.queues.headFor(1)).toBe(a);
  });

  it("detects congestion above the threshold: a CFQ one hop from the root for the head's output and destination", () => {
    const s = setup();
    s.arrive(1, 5);
    s.arrive(2, 6);
    s.arrive(1, 5);
    // The head (to 5 via 1) went into a new CFQ; so did the next head once it was the head.
    expect(s.counts.rootsDetected).toBeGreaterThanOrEqual(1);
    const line = s.queues.hotLine(0)!;
    expect(line).toMatchObject({ op: 1, hops: 1 });
    expect([...line.dList]).toEqual([5]);
    expect(s.queues.headFor(1)).not.toBe(NO_PACKET);
  });

  it("sends the line and a stop above Stop, a go at Go, a deallocate once empty; counts a root CFQ above High", () => {
    const s = setup(1);
    for (let i = 0; i < 3; i++) s.arrive(1, 5);
    expect(s.queues.queued(1)).toBe(3);
    expect(s.roots[1]).toBe(1);
    expect(s.types()).toEqual([]);
    s.arrive(1, 5);
    expect(s.types()).toEqual(["allocate", "stop"]);
    s.queues.dequeueFor(1);
    s.queues.dequeueFor(1);
    expect(s.types()).toEqual(["allocate", "stop"]);
    s.queues.dequeueFor(1);
    expect(s.roots[1]).toBe(0);
    expect(s.types()).toEqual(["allocate", "stop", "go"]);
    s.queues.dequeueFor(1);
    expect(s.types()).toEqual(["allocate", "stop", "go", "deallocate"]);
    expect(s.queues.freeHotQueues).toBe(1);
  });

  it("propagates an output line into a linked CFQ that never counts as a root", () => {
    const s = setup();
    const out = s.cams.allocate(3, 9, 1, new Set([7]))!;
    for (let i = 0; i < 4; i++) s.arrive(3, 7);
    const line = s.queues.hotLine(0)!;
    expect(line.outLine).toBe(out);
    expect(line.hops).toBe(2);
    expect(s.roots[3]).toBe(0);
    out.stop = true;
    expect(s.queues.headFor(3)).toBe(NO_PACKET);
  });
});
