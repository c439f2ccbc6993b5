import { IntFifo, NO_PACKET, type PacketId } from "@cclab/fabric";

/**
 * The control packets a switch sends itself (a CC part's NACKs, BCN frames, link-local
 * messages), one FIFO per output port, served ahead of data when the output is free.
 */
export class ControlQueues {
  private readonly queues: IntFifo[] = [];
  /** Packets waiting at any port: mostly none, and then no port's FIFO is looked at. */
  private waiting = 0;

  constructor(portCount: number) {
    for (let port = 0; port < portCount; port++) this.queues.push(new IntFifo(2));
  }

  push(port: number, packet: PacketId): void {
    this.queues[port]!.push(packet);
    this.waiting++;
  }

  /** The first control packet waiting at `port`, or NO_PACKET. */
  peek(port: number): PacketId {
    if (this.waiting === 0) return NO_PACKET;
    return this.queues[port]!.peek();
  }

  /** Removes the packet {@link peek} gave. */
  shift(port: number): void {
    this.queues[port]!.shift();
    this.waiting--;
  }
}
