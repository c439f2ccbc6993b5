import type { Scheduler } from "@cclab/core-des";
import {
  type InputQueueSet,
  PacketChains,
  type PacketId,
  type Packets,
  type PortView,
  type QueueingPart,
  type QueueSetContext,
  type SwitchPart,
} from "@cclab/fabric";
import { voqPerOutput } from "./queues/voq-port.js";
import type { InstalledSwitchPart } from "./switch-parts.js";

/** What the queue sets of a switch are given of it (see `QueueSetContext`). */
export interface QueueSetDevice {
  readonly index: number;
  readonly portCount: number;
  readonly hostCount: number;
  readonly scheduler: Scheduler;
  portView(port: number): PortView;
  sendOnPort(port: number, packet: PacketId): void;
  wake(outPort: number): void;
}

function queueSetContext(
  device: QueueSetDevice,
  inPort: number,
  vl: number,
  packets: Packets,
): QueueSetContext {
  return {
    switchIndex: device.index,
    inPort,
    vl,
    portCount: device.portCount,
    hostCount: device.hostCount,
    packets,
    scheduler: device.scheduler,
    port: (i) => device.portView(i),
    sendOnPort: (port, packet) => device.sendOnPort(port, packet),
    wake: (outPort) => device.wake(outPort),
  };
}

/**
 * The queues of every input port and VL of a switch (docs/model.md, "Input side"): the queue
 * set of the queueing scheme, or of a switch part that builds its own (CCFIT, EcoCC). The
 * default, a VOQ per output port, is kept as one set of chains for the whole switch: the
 * queue of (input, VL) for output `out` is chain `(input * vlCount + vl) * portCount + out`. The
 * same queues as the `VoqPerOutput` queue set, whose one object with arrays of its own per
 * (input, VL) cost several cache misses per hop on a large fabric.
 */
export class InputQueues {
  private voq: PacketChains | undefined = undefined;
  /** The queue sets per (input, VL) when the queues are not the flat VOQ. */
  private sets: InputQueueSet[] = [];

  constructor(
    private readonly portCount: number,
    private readonly vlCount: number,
    private readonly packets: Packets,
  ) {}

  /**
   * (Re)builds every queue, empty: `builder`'s where it builds one (at most one part may), else
   * `queueing`'s. Before any packet arrives.
   */
  build(
    queueing: QueueingPart,
    parts: readonly InstalledSwitchPart[],
    device: QueueSetDevice,
    switchName: string,
  ): void {
    const builders = parts.filter((p) => p.part.createQueueSet !== undefined);
    if (builders.length > 1) {
      throw new TypeError(
        `cc: ${builders[0]!.label} and ${builders[1]!.label} both build the queues of switch ${switchName}; one part per switch may`,
      );
    }
    const builder: SwitchPart | undefined = builders[0]?.part;
    const flat = queueing === voqPerOutput && builder === undefined;
    const n = this.portCount;
    this.voq = flat ? new PacketChains(n * this.vlCount * n, this.packets) : undefined;
    this.sets = [];
    if (flat) return;
    for (let inPort = 0; inPort < n; inPort++) {
      for (let vl = 0; vl < this.vlCount; vl++) {
        const context = queueSetContext(device, inPort, vl, this.packets);
        const own = builder === undefined ? undefined : builder.createQueueSet!(context);
        this.sets.push(own ?? queueing.create(context));
      }
    }
  }

  /** A packet routed to `out` joins the queues of (`input`, `vl`). */
  enqueue(input: number, vl: number, out: number, packet: PacketId): void {
    const voq = this.voq;
    if (voq === undefined) this.sets[input * this.vlCount + vl]!.enqueue(packet);
    else voq.push((input * this.vlCount + vl) * this.portCount + out, packet);
  }

  /** The packet (`input`, `vl`) would send to `out` now, or NO_PACKET. */
  head(input: number, vl: number, out: number): PacketId {
    const voq = this.voq;
    if (voq === undefined) return this.sets[input * this.vlCount + vl]!.headFor(out);
    return voq.head((input * this.vlCount + vl) * this.portCount + out);
  }

  /** Removes the packet {@link head} gave. */
  dequeue(input: number, vl: number, out: number): void {
    const voq = this.voq;
    if (voq === undefined) this.sets[input * this.vlCount + vl]!.dequeueFor(out);
    else voq.shift((input * this.vlCount + vl) * this.portCount + out);
  }
}
