import { type InputQueueSet, IntFifo, NO_PACKET, type PacketId, type Packets } from "@cclab/fabric";

/**
 * One FIFO for an input port's control or speculative lane: the paper's routers queue every
 * lane but the main data lane in a single FIFO input buffer, VOQ being for data only (seed
 * 000_23e1115f082a0339.txt, line 98). Its head blocks packets behind it for other outputs, so
 * speculative packets queue (and time out) as they did there.
 */
export class FifoLane implements InputQueueSet {
  private readonly queue = new IntFifo(4);

  constructor(private readonly packets: Packets) {}

  get packetCount(): number {
    return this.queue.length;
  }

  enqueue(packet: PacketId): void {
    this.queue.push(packet);
  }

  headFor(outPort: number): PacketId {
    if (this.queue.length === 0) return NO_PACKET;
    const head = this.queue.peek();
    return this.packets.outPort[head] === outPort ? head : NO_PACKET;
  }

  dequeueFor(outPort: number): PacketId {
    const head = this.headFor(outPort);
    if (head !== NO_PACKET) this.queue.shift();
    return head;
  }
}
