import { Fifo, type InputQueueSet, type Packet, type QueueingPart } from "@cclab/fabric";

/**
 * One FIFO per input port and VL ("1Q"): a head packet for a busy or blocked output blocks
 * everything behind it (head-of-line blocking, Gran thesis background chapter).
 */
export class SingleQueue implements InputQueueSet {
  private readonly queue = new Fifo<Packet>(16);

  get packetCount(): number {
    return this.queue.length;
  }

  enqueue(packet: Packet): void {
    this.queue.push(packet);
  }

  headFor(outPort: number): Packet | undefined {
    const head = this.queue.peek();
    return head !== undefined && head.outPort === outPort ? head : undefined;
  }

  dequeueFor(_outPort: number): Packet {
    return this.queue.shift()!;
  }
}

export const singleQueue: QueueingPart = {
  specVersion: 1,
  name: "1q",
  create: () => new SingleQueue(),
};
