import {
  type InputQueueSet,
  NO_PACKET,
  type PacketId,
  type Packets,
  type QueueingPart,
  type QueueSetContext,
} from "@cclab/fabric";

/**
 * Virtual output queues: one FIFO per output port at each input port and VL. All of them
 * draw on the input's one buffer and credit pool, so a congested output's queue can still
 * fill the buffer and stall the others (the victim effect, Gran thesis L342 and L1338).
 *
 * Each FIFO is a chain of packets through `Packets.next`, with its head and tail here: a
 * switch has ports² VOQs per VL, and a ring buffer for each made enqueue and dequeue miss the
 * cache on a large fabric (uniform256 bench).
 */
export class VoqPerOutput implements InputQueueSet {
  private readonly heads: Int32Array;
  private readonly tails: Int32Array;
  private count = 0;

  constructor(
    portCount: number,
    private readonly packets: Packets,
  ) {
    this.heads = new Int32Array(portCount).fill(NO_PACKET);
    this.tails = new Int32Array(portCount).fill(NO_PACKET);
  }

  get packetCount(): number {
    return this.count;
  }

  enqueue(packet: PacketId): void {
    // The switch's route() has already checked the port (it throws on one out of range).
    const packets = this.packets;
    const out = packets.outPort[packet]!;
    packets.next[packet] = NO_PACKET;
    const tail = this.tails[out]!;
    if (tail === NO_PACKET) this.heads[out] = packet;
    else packets.next[tail] = packet;
    this.tails[out] = packet;
    this.count++;
  }

  headFor(outPort: number): PacketId {
    return this.heads[outPort]!;
  }

  dequeueFor(outPort: number): PacketId {
    const packets = this.packets;
    const packet = this.heads[outPort]!;
    const next = packets.next[packet]!;
    this.heads[outPort] = next;
    if (next === NO_PACKET) this.tails[outPort] = NO_PACKET;
    else packets.next[packet] = NO_PACKET;
    this.count--;
    return packet;
  }
}

export const voqPerOutput: QueueingPart = {
  specVersion: 2,
  name: "voq-port",
  create: (context: QueueSetContext) => new VoqPerOutput(context.portCount, context.packets),
};
