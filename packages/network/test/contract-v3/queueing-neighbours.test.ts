/**
 * Contract 3.0, queueing parts that talk to neighbours (what CCFIT and EcoCC need, seed
 * 001_7d04a2bae72754e7.txt, Papers V and VI): a switch part builds the queues of one of its
 * inputs; when that queue set starts to fill it "allocates" a queue, holds it back for a while,
 * tells the upstream switch with a link-local control packet, and then wakes its switch, which
 * arbitrates again at once.
 */
import { type TimePs, usToPs } from "@cclab/core-des";
import {
  type CcScheme,
  type InputQueueSet,
  NO_PACKET,
  type PacketId,
  type QueueSetContext,
} from "@cclab/fabric";
import { twoSwitchTestbed } from "@cclab/topologies";
import { expect, it } from "vitest";
import { creditConservationViolation, Network } from "../../src/index.js";

const HOLD_PS = usToPs(5);

/** A FIFO that, at its third packet, holds its head back for HOLD_PS and tells upstream. */
class HoldingQueue implements InputQueueSet {
  private readonly fifo: PacketId[] = [];
  heldUntilPs: TimePs = Number.NEGATIVE_INFINITY;
  private allocated = false;

  constructor(
    private readonly context: QueueSetContext,
    private readonly controlVl: number,
    private readonly releaseKind: number,
  ) {}

  get packetCount(): number {
    return this.fifo.length;
  }

  enqueue(packet: PacketId): void {
    this.fifo.push(packet);
    if (this.fifo.length === 3 && !this.allocated) {
      const { packets, scheduler } = this.context;
      this.allocated = true;
      this.heldUntilPs = scheduler.nowPs + HOLD_PS;
      const message = packets.create({ kind: "x-toy-alloc", sizeBytes: 64, vl: this.controlVl });
      this.context.sendOnPort(this.context.inPort, message);
      scheduler.schedule(this.heldUntilPs, this.releaseKind, packets.outPort[packet]!);
    }
  }

  headFor(outPort: number): PacketId {
    if (this.context.scheduler.nowPs < this.heldUntilPs) return NO_PACKET;
    const head = this.fifo[0];
    return head !== undefined && this.context.packets.outPort[head] === outPort ? head : NO_PACKET;
  }

  dequeueFor(): PacketId {
    return this.fifo.shift()!;
  }
}

it("builds an input's queues, sends link-local messages upstream, and is woken", () => {
  const topology = twoSwitchTestbed({ rateGbps: 10, latencyNs: 10 });
  const heard: { switchIndex: number; inPort: number; kind: string; atPs: TimePs }[] = [];
  const leftS2: { inPort: number; atPs: TimePs }[] = [];
  let holding: HoldingQueue | undefined;
  const scheme: CcScheme = {
    specVersion: "^3.0.0",
    name: "toy-hot-queues",
    switchPart: {
      specVersion: "^3.0.0",
      name: "hold-and-tell",
      lanes: [{ name: "control", role: "control" }],
      create: (sw) => {
        const releaseKind = sw.scheduler.defineKind(
          `toy: release at switch ${sw.switchIndex}`,
          (out) => sw.wake(out),
        );
        return {
          // S2's port 0 (from S1), data VL 0: the toy's queues; every other input as configured.
          createQueueSet: (context) => {
            if (context.switchIndex !== 1 || context.inPort !== 0 || context.vl !== 0)
              return undefined;
            holding = new HoldingQueue(context, sw.lanes.control!, releaseKind);
            return holding;
          },
          onLinkControl: (p, inPort) =>
            heard.push({
              switchIndex: sw.switchIndex,
              inPort,
              kind: sw.packets.kind(p),
              atPs: sw.scheduler.nowPs,
            }),
          onTransmit: (_p, inPort) => {
            if (sw.switchIndex === 1 && inPort === 0)
              leftS2.push({ inPort, atPs: sw.scheduler.nowPs });
          },
        };
      },
    },
  };
  const net = new Network(topology, { cc: scheme });
  // H1 and H2 to H4: the 20 Gb/s trunk brings packets to S2 faster than H4's link takes them.
  const { H1, H2, H4 } = topology.hostIndex;
  for (const src of [H1, H2]) net.addMessage(src, { dstHost: H4, bytes: 8 * 2048, startPs: 0 });
  let violation: string | undefined;
  net.run(undefined, () => {
    violation ??= creditConservationViolation(net);
    return false;
  });
  expect(violation).toBeUndefined();
  // S1 (switch 0) heard the allocation once, on its port toward S2 (port 3).
  expect(heard.map(({ switchIndex, inPort, kind }) => ({ switchIndex, inPort, kind }))).toEqual([
    { switchIndex: 0, inPort: 3, kind: "x-toy-alloc" },
  ]);
  // Nothing left S2 from that input while held; the first packet went the moment it was woken.
  const held = holding!.heldUntilPs;
  expect(leftS2.some((l) => l.atPs === held)).toBe(true);
  expect(leftS2.every((l) => l.atPs <= held - HOLD_PS || l.atPs >= held)).toBe(true);
  expect(net.hosts[H4]!.completions.map((c) => c.bytes)).toEqual([8 * 2048, 8 * 2048]);
});
