import type { InputQueueSet, Packet, QueueingPart, QueueSetContext } from "@cclab/fabric";

/**
 * Virtual output queues: one FIFO per output port at each input port and VL. All of them
 * draw on the input's one buffer and credit pool, so a congested output's queue can still
 * fill the buffer and stall the others (the victim effect, Gran thesis L342 and L1338).
 *
 * Each FIFO is a chain of packets through `Packet.queueNext`, with its head and tail here: a
 * switch has ports² VOQs per VL, and a ring buffer object for each (two objects, several cache
 * lines) made enqueue and dequeue miss the cache on a large fabric (uniform256 bench).
 */
export class VoqPerOutput implements InputQueueSet {
  private readonly heads: (Packet | undefined)[];
  private readonly tails: (Packet | undefined)[];
  private count = 0;

  constructor(portCount: number) {
    this.heads = new Array<Packet | undefined>(portCount).fill(undefined);
    this.tails = new Array<Packet | undefined>(portCount).fill(undefined);
  }

  get packetCount(): number {
    return this.count;
  }

  enqueue(packet: Packet): void {
    // The switch's route() has already checked the port (it throws on one out of range).
    const out = packet.outPort;
    packet.queueNext = undefined;
    const tail = this.tails[out];
    if (tail === undefined) this.heads[out] = packet;
    else tail.queueNext = packet;
    this.tails[out] = packet;
    this.count++;
  }

  headFor(outPort: number): Packet | undefined {
    return this.heads[outPort];
  }

  dequeueFor(outPort: number): Packet {
    const packet = this.heads[outPort]!;
    const next = packet.queueNext;
    this.heads[outPort] = next;
    if (next === undefined) this.tails[outPort] = undefined;
    else packet.queueNext = undefined;
    this.count--;
    return packet;
  }
}

export const voqPerOutput: QueueingPart = {
  specVersion: 1,
  name: "voq-port",
  create: (context: QueueSetContext) => new VoqPerOutput(context.portCount),
};
