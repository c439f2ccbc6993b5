import {
  type InputQueueSet,
  PacketChains,
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
 * The FIFOs are `PacketChains`, one per output. A switch with this scheme (the default) keeps
 * the chains of all its inputs and VLs in one `PacketChains` instead of one of these per
 * (input, VL): the same queues, with fewer objects to miss the cache on.
 */
export class VoqPerOutput implements InputQueueSet {
  /** One chain per output port. */
  private readonly chains: PacketChains;
  private count = 0;

  constructor(
    portCount: number,
    private readonly packets: Packets,
  ) {
    this.chains = new PacketChains(portCount, packets);
  }

  get packetCount(): number {
    return this.count;
  }

  enqueue(packet: PacketId): void {
    // The switch's route() has already checked the port (it throws on one out of range).
    this.chains.push(this.packets.outPort[packet]!, packet);
    this.count++;
  }

  headFor(outPort: number): PacketId {
    return this.chains.head(outPort);
  }

  dequeueFor(outPort: number): PacketId {
    this.count--;
    return this.chains.shift(outPort);
  }
}

export const voqPerOutput: QueueingPart = {
  specVersion: 2,
  name: "voq-port",
  create: (context: QueueSetContext) => new VoqPerOutput(context.portCount, context.packets),
};
