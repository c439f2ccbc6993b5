import {
  type InputQueueSet,
  IntFifo,
  NO_PACKET,
  type PacketId,
  type Packets,
  type QueueingPart,
} from "@cclab/fabric";

/**
 * One FIFO per input port and VL ("1Q"): a head packet for a busy or blocked output blocks
 * everything behind it (head-of-line blocking, Gran thesis background chapter).
 */
export class SingleQueue implements InputQueueSet {
  private readonly queue = new IntFifo(16);

  constructor(private readonly packets: Packets) {}

  get packetCount(): number {
    return this.queue.length;
  }

  enqueue(packet: PacketId): void {
    this.queue.push(packet);
  }

  headFor(outPort: number): PacketId {
    const head = this.queue.peek();
    return head !== NO_PACKET && this.packets.outPort[head] === outPort ? head : NO_PACKET;
  }

  dequeueFor(_outPort: number): PacketId {
    return this.queue.shift();
  }
}

export const singleQueue: QueueingPart = {
  specVersion: 2,
  name: "1q",
  create: (context) => new SingleQueue(context.packets),
};
