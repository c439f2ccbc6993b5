import {
  Fifo,
  type InputQueueSet,
  type Packet,
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
  private readonly queues: (Fifo<Packet> | undefined)[];
  /** Destinations with queued packets, in the order they will be offered. */
  private readonly active = new Fifo<number>(8);
  private count = 0;

  constructor(hostCount: number) {
    this.queues = new Array<Fifo<Packet> | undefined>(hostCount).fill(undefined);
  }

  get packetCount(): number {
    return this.count;
  }

  enqueue(packet: Packet): void {
    let queue = this.queues[packet.dstHost];
    if (queue === undefined) {
      queue = new Fifo<Packet>(2);
      this.queues[packet.dstHost] = queue;
    }
    if (queue.length === 0) this.active.push(packet.dstHost);
    queue.push(packet);
    this.count++;
  }

  headFor(outPort: number): Packet | undefined {
    const index = this.find(outPort);
    return index < 0 ? undefined : this.queues[this.active.at(index)!]!.peek();
  }

  dequeueFor(outPort: number): Packet {
    const index = this.find(outPort);
    const dst = this.active.removeAt(index)!;
    const queue = this.queues[dst]!;
    const packet = queue.shift()!;
    // Back of the line: the next packet for this output comes from another destination.
    if (queue.length !== 0) this.active.push(dst);
    this.count--;
    return packet;
  }

  private find(outPort: number): number {
    const active = this.active;
    for (let i = 0; i < active.length; i++) {
      if (this.queues[active.at(i)!]!.peek()!.outPort === outPort) return i;
    }
    return -1;
  }
}

export const voqPerDestination: QueueingPart = {
  specVersion: 1,
  name: "voq-dest",
  create: (context: QueueSetContext) => new VoqPerDestination(context.hostCount),
};
