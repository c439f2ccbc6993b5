import type { Scheduler } from "@cclab/core-des";
import type { PortView } from "./cc.js";
import type { PartDeclarations } from "./declarations.js";
import type { PacketId, Packets } from "./packet.js";
import type { SpecVersionRange } from "./version.js";

/**
 * The queues of one input port and VL of a switch (docs/model.md, "Input side"): however they are
 * organised, they share the port's buffer and credits for that VL, which is what makes a
 * congested flow block others (the victim effect of Gran thesis Paper II). The switch
 * decides when a packet is buffered and when it leaves; the queue set only decides the order.
 */
export interface InputQueueSet {
  /** A packet has arrived and been routed (its `outPort` is set). */
  enqueue(packet: PacketId): void;
  /**
   * The packet this input would send to `outPort` now: a queue head routed there, or
   * `NO_PACKET` (−1).
   */
  headFor(outPort: number): PacketId;
  /** Removes and returns the packet {@link headFor} gave for `outPort`. */
  dequeueFor(outPort: number): PacketId;
  /** Packets queued. */
  readonly packetCount: number;
}

/** What a queue set is built for. */
export interface QueueSetContext {
  readonly switchIndex: number;
  readonly inPort: number;
  readonly vl: number;
  readonly portCount: number;
  readonly hostCount: number;
  /** The network's packets (a queue set may chain its packets through `packets.next`). */
  readonly packets: Packets;
  /** The network's clock and events (timers of a queue set). Since 3.0. */
  readonly scheduler: Scheduler;
  /** A read-only view of a port of this switch. Since 3.0. */
  port(index: number): PortView;
  /**
   * Sends a link-local control packet out of `port` to the device at the other end of that link
   * (CCFIT's and EcoCC's allocate/stop/go/deallocate). Since 3.0.
   */
  sendOnPort(port: number, packet: PacketId): void;
  /** Makes the switch arbitrate for `outPort` again (after a stopped queue may go). Since 3.0. */
  wake(outPort: number): void;
}

/**
 * A queueing scheme for switch inputs (one FIFO, VOQ per output, VOQ per destination, or a
 * plug-in such as EcoCC's hot-flow queues): builds the queue set of each input port and VL.
 */
export interface QueueingPart extends PartDeclarations {
  readonly specVersion: SpecVersionRange;
  readonly name: string;
  create(context: QueueSetContext): InputQueueSet;
}
