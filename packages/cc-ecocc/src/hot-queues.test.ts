import { NO_PACKET, type PacketId } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { queueHarness } from "../test/queue-harness.js";
import { HotFlowQueues } from "./hot-queues.js";

const PORTS = 4;

/** One input (port 0) of a 4-port switch, HTh 2, LTh 1. */
function setup(
  options: { hotQueues?: number; localRootHpq?: boolean; joinDownstreamLines?: boolean } = {},
) {
  const h = queueHarness(PORTS);
  const rules = {
    hthPackets: 2,
    lthPackets: 1,
    localRootHpq: options.localRootHpq ?? false,
    joinDownstreamLines: options.joinDownstreamLines ?? false,
    rootLineStopGo: true,
  };
  const queues = new HotFlowQueues(h.context, options.hotQueues ?? 2, h.host, rules, 0);
  const arrive = (out: number, dst: number): PacketId => {
    const p = h.packet(out, dst);
    queues.enqueue(p);
    return p;
  };
  return { ...h, queues, arrive };
}

describe("HotFlowQueues (EcoCC input port)", () => {
  it("detects a root when a CPQ goes above HTh: counts it and sends its root line upstream with the queued destinations", () => {
    const s = setup();
    s.arrive(1, 5);
    s.arrive(1, 6);
    expect(s.sent).toEqual([]);
    s.arrive(1, 5);
    expect(s.roots[1]).toBe(1);
    expect(s.sent).toEqual([{ type: "allocate", id: 1, hops: 1, dList: [5, 6] }]);
    // No HPQ at the root's switch (L2271): the packets stay in the CPQ.
    expect(s.queues.queued(1)).toBe(3);
    expect(s.queues.freeHotQueues).toBe(2);
  });

  it("stops the upstream at the next packet above HTh, sends go at LTh, frees the root line once empty", () => {
    const s = setup();
    for (let i = 0; i < 4; i++) s.arrive(1, 5);
    expect(s.types()).toEqual(["allocate", "stop"]);
    s.queues.dequeueFor(1);
    s.queues.dequeueFor(1);
    expect(s.types()).toEqual(["allocate", "stop"]);
    expect(s.roots[1]).toBe(1);
    s.queues.dequeueFor(1);
    // At LTh (1 packet): the port leaves the root count and the go goes.
    expect(s.roots[1]).toBe(0);
    expect(s.types()).toEqual(["allocate", "stop", "go"]);
    s.queues.dequeueFor(1);
    expect(s.types()).toEqual(["allocate", "stop", "go", "deallocate"]);
    expect(s.queues.rootLine(1)).toBeUndefined();
    expect(s.queues.packetCount).toBe(0);
  });

  it("moves CPQ heads an output line holds into a new HPQ linked to it, with one hop more", () => {
    const s = setup();
    const line = s.cams.allocate(2, 7, 1, new Set([9]))!;
    const cold = s.arrive(2, 3);
    const hot = s.arrive(2, 9);
    // The head is cold: nothing moves until it leaves (post-processing is at the head, L2283).
    expect(s.queues.freeHotQueues).toBe(2);
    expect(s.queues.dequeueFor(2)).toBe(cold);
    expect(s.queues.freeHotQueues).toBe(1);
    const own = s.queues.hotLine(0)!;
    expect(own.outLine).toBe(line);
    expect(own.hops).toBe(2);
    expect(s.queues.queued(PORTS)).toBe(1);
    expect(s.queues.headFor(2)).toBe(hot);
  });

  it("does not offer a stopped HPQ; the CPQ of the same output still goes", () => {
    const s = setup();
    const line = s.cams.allocate(2, 7, 1, new Set([9]))!;
    s.arrive(2, 9);
    const cold = s.arrive(2, 3);
    line.stop = true;
    expect(s.queues.headFor(2)).toBe(cold);
    s.queues.dequeueFor(2);
    expect(s.queues.headFor(2)).toBe(NO_PACKET);
    line.stop = false;
    expect(s.queues.headFor(2)).not.toBe(NO_PACKET);
  });

  it("propagates an HPQ line upstream the first time it goes above HTh and stops it the next", () => {
    const s = setup();
    s.cams.allocate(2, 7, 1, new Set([9]));
    for (let i = 0; i < 3; i++) s.arrive(2, 9);
    expect(s.sent).toEqual([{ type: "allocate", id: PORTS, hops: 2, dList: [9] }]);
    s.arrive(2, 9);
    expect(s.types()).toEqual(["allocate", "stop"]);
    for (let i = 0; i < 3; i++) s.queues.dequeueFor(2);
    expect(s.types()).toEqual(["allocate", "stop", "go"]);
    s.queues.dequeueFor(2);
    expect(s.types()).toEqual(["allocate", "stop", "go", "deallocate"]);
    expect(s.queues.freeHotQueues).toBe(2);
    expect(s.counts).toMatchObject({ hotQueueAllocated: 1, hotQueueReleased: 1 });
  });

  it("without a free HPQ a hot packet stays cold and counts a miss; a freed HPQ takes it later", () => {
    const s = setup({ hotQueues: 1 });
    s.cams.allocate(2, 7, 1, new Set([9]));
    s.cams.allocate(3, 8, 1, new Set([10]));
    const first = s.arrive(2, 9);
    const waiting = s.arrive(3, 10);
    expect(s.counts.hotQueueMisses).toBe(1);
    expect(s.queues.queued(3)).toBe(1);
    expect(s.queues.dequeueFor(2)).toBe(first);
    // HPQ 0 was freed and went to the tree through output 3.
    expect(s.queues.hotLine(0)!.op).toBe(3);
    expect(s.queues.queued(PORTS)).toBe(1);
    expect(s.queues.headFor(3)).toBe(waiting);
  });

  it("with localRootHpq (HFDI) isolates the local root's flows in an HPQ at detection", () => {
    const s = setup({ localRootHpq: true });
    for (let i = 0; i < 3; i++) s.arrive(1, 5);
    expect(s.queues.hotLine(0)).toMatchObject({ op: 1, hops: 1 });
    expect(s.queues.queued(1)).toBe(0);
    expect(s.queues.queued(PORTS)).toBe(3);
    // Moved in above HTh: the HPQ line, sent upstream at detection, now also stops it.
    expect(s.sent[0]).toEqual({ type: "allocate", id: PORTS, hops: 1, dList: [5] });
    expect(s.types()).toEqual(["allocate", "stop"]);
  });

  it("with joinDownstreamLines a local-root line joins a downstream line allocated later, whose stop holds it", () => {
    for (const join of [false, true]) {
      const s = setup({ localRootHpq: true, joinDownstreamLines: join });
      const first = s.arrive(1, 5);
      for (let i = 0; i < 2; i++) s.arrive(1, 5);
      const downstream = s.cams.allocate(1, 7, 2, new Set([5, 6]))!;
      s.queues.outputLineAdded(1, downstream);
      downstream.stop = true;
      expect(s.queues.hotLine(0)!.stopped).toBe(join);
      expect(s.queues.hotLine(0)!.hops).toBe(join ? 3 : 1);
      expect(s.queues.headFor(1)).toBe(join ? NO_PACKET : first);
    }
  });

  it("serves the CPQ and the HPQs of one output round robin", () => {
    const s = setup();
    s.cams.allocate(2, 7, 1, new Set([9]));
    const h1 = s.arrive(2, 9);
    const h2 = s.arrive(2, 9);
    const c1 = s.arrive(2, 3);
    const c2 = s.arrive(2, 3);
    const order = [0, 1, 2, 3].map(() => s.queues.dequeueFor(2));
    expect(order).toEqual([c1, h1, c2, h2]);
  });
});
