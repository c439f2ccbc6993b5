import {
  Fifo,
  type InputQueueSet,
  type Packet,
  type QueueingPart,
  type QueueSetContext,
} from "@cclab/fabric";

/**
 * Virtual output queues: one FIFO per output port at each input port and VL. All of them
 * draw on the input's one buffer and credit pool, so a congested output's queue can still
 * fill the buffer and stall the others (the victim effect, Gran thesis L342 and L1338).
 */
export class VoqPerOutput implements InputQueueSet {
  private readonly queues: Fifo<Packet>[] = [];
  private count = 0;

  constructor(portCount: number) {
    for (let i = 0; i < portCount; i++) this.queues.push(new Fifo<Packet>(4));
  }

  get packetCount(): number {
    return this.count;
  }

  enqueue(packet: Packet): void {
    this.queues[packet.outPort]!.push(packet);
    this.count++;
  }

  headFor(outPort: number): Packet | undefined {
    return this.queues[outPort]!.peek();
  }

  dequeueFor(outPort: number): Packet {
    this.count--;
    return this.queues[outPort]!.shift()!;
  }
}

export const voqPerOutput: QueueingPart = {
  specVersion: 1,
  name: "voq-port",
  create: (context: QueueSetContext) => new VoqPerOutput(context.portCount),
};
