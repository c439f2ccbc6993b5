import { IntFifo } from "./fifo.js";
import { NO_PACKET, type PacketId, type Packets } from "./packet.js";
import type { InputQueueSet } from "./queueing.js";

/**
 * One FIFO for the packets of an input port and VL ("1Q"): a head packet for a busy or
 * blocked output blocks everything behind it (head-of-line blocking, Gran thesis background
 * chapter). The switch's `1q` queueing, and the queue a scheme gives the lanes it wants queued
 * in order (SRP's control and speculative lanes, seed 000_23e1115f082a0339.txt line 98).
 */
export class FifoQueueSet implements InputQueueSet {
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
