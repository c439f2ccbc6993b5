import {
  type InputQueueSet,
  IntFifo,
  NO_PACKET,
  type PacketId,
  type Packets,
  type QueueingPart,
  type QueueSetContext,
} from "@cclab/fabric";

/**
 * VOQnet: one FIFO per destination host at each input port and VL, so no packet ever waits
 * behind one for another destination. Queues with packets wait in arrival-of-first-packet
 * order; an output takes the first of them whose head is routed to it, which serves the
 * destinations sharing an output round-robin.
 */
export class VoqPerDestination implements InputQueueSet {
  // Created on first use: a 648-host fabric has 648 destinations per input port and VL.
  private readonly queues: (IntFifo | undefined)[];
  /** Destinations with queued packets, in the order they will be offered. */
  private readonly active = new IntFifo(8);
  private count = 0;

  constructor(
    hostCount: number,
    private readonly packets: Packets,
  ) {
    this.queues = new Array<IntFifo | undefined>(hostCount).fill(undefined);
  }

  get packetCount(): number {
    return this.count;
  }

  enqueue(packet: PacketId): void {
    const dst = this.packets.dstHost[packet]!;
    let queue = this.queues[dst];
    if (queue === undefined) {
      queue = new IntFifo(2);
      this.queues[dst] = queue;
    }
    if (queue.length === 0) this.active.push(dst);
    queue.push(packet);
    this.count++;
  }

  headFor(outPort: number): PacketId {
    const index = this.find(outPort);
    return index < 0 ? NO_PACKET : this.queues[this.active.at(index)]!.peek();
  }

  dequeueFor(outPort: number): PacketId {
    const index = this.find(outPort);
    const dst = this.active.removeAt(index);
    const queue = this.queues[dst]!;
    const packet = queue.shift();
    // Back of the line: the next packet for this output comes from another destination.
    if (queue.length !== 0) this.active.push(dst);
    this.count--;
    return packet;
  }

  private find(outPort: number): number {
    const active = this.active;
    const outPorts = this.packets.outPort;
    for (let i = 0; i < active.length; i++) {
      if (outPorts[this.queues[active.at(i)]!.peek()] === outPort) return i;
    }
    return -1;
  }
}

export const voqPerDestination: QueueingPart = {
  specVersion: 2,
  name: "voq-dest",
  create: (context: QueueSetContext) => new VoqPerDestination(context.hostCount, context.packets),
};
