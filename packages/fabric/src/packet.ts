import type { TimePs } from "@cclab/core-des";

/**
 * What a packet is. The named kinds cover every scheme in the seeds; a scheme that needs a
 * control packet of its own uses an `x-` kind (e.g. `"x-ccfit-stop"`), so the union stays
 * exhaustive for the devices while plugins can extend it.
 */
export type PacketKind =
  | "data"
  | "ack"
  | "nack"
  | "cnp"
  | "reservation"
  | "grant"
  | "probe"
  | "bcn"
  | "pause"
  | "credit-update"
  | `x-${string}`;

/**
 * ECN code points of the IP header's two ECN bits. TCD (seed 004) reads `10` as UE,
 * "undetermined encountered", instead of ECT(0).
 */
export const Ecn = {
  notCapable: 0b00,
  capable: 0b01,
  undetermined: 0b10,
  congestion: 0b11,
} as const;
export type EcnCodePoint = (typeof Ecn)[keyof typeof Ecn];

/**
 * One packet. Devices hand the same object from hop to hop (no copy per hop); the fields
 * a hop changes (`vl`, `outPort`, `hops`) describe the current hop; its arrival times at
 * the current hop are kept by the link that carries it (see `LinkReceiver`). Sizes are whole bytes on the wire, header included.
 */
export class Packet {
  // Field order is memory order: the fields every hop reads and writes come first, so that a
  // hop touches two cache lines of a packet rather than four (uniform256 bench: the packet
  // is cold when it arrives at a switch).
  /** Bytes on the wire, header included. */
  sizeBytes = 0;
  /** Virtual lane / priority used on the current link. */
  vl = 0;
  /** Output port chosen at the current switch, or −1 before routing. */
  outPort = -1;
  dstHost = 0;
  /** The source–destination–SL queue pair the packet belongs to. */
  flowId = 0;
  /** Switch hops traversed so far. */
  hops = 0;
  /**
   * The packet behind this one in the device queue or link that holds it, for those that
   * chain their packets instead of keeping a ring buffer each (links, and the built-in VOQs:
   * a switch has ports² of them, and buffers for all would not stay in cache). A packet waits
   * in one such place at a time; `undefined` when it is last or in none.
   */
  queueNext: Packet | undefined = undefined;
  /** Application bytes carried (0 for control packets). */
  payloadBytes = 0;
  kind: PacketKind = "data";
  messageId = 0;
  /** Index of the packet within its message, from 0. */
  seqInMessage = 0;
  /** True on the last packet of a message. */
  lastOfMessage = false;
  /** Payload bytes of the whole message (lets a receiver see completion under reordering). */
  messageBytes = 0;
  srcHost = 0;
  /** Service level (InfiniBand) or priority (Ethernet PFC), end to end. */
  sl = 0;
  /** InfiniBand forward and backward explicit congestion notification bits. */
  fecn = false;
  becn = false;
  ecn: EcnCodePoint = Ecn.notCapable;
  /** The message's arrival at the send queue (MODEL.md: total latency starts here). */
  createdPs: TimePs = 0;
  /** Start of the packet's injection by the source host (in-network latency starts here). */
  injectedPs: TimePs = 0;
  /** Scheme-specific contents of a control packet (e.g. a grant's start time). */
  control: unknown = undefined;
}

/**
 * Recycles data packets that have reached their destination, so that a long run does not
 * allocate (and garbage-collect) one object per packet, and a new packet reuses memory that
 * is still in cache (DESIGN.md, "No allocation per packet-hop where a pool … does").
 *
 * Only safe where nothing keeps a packet after its delivery: a network uses a pool only when
 * it runs no CC scheme (whose parts might hold packets), and delivery listeners may read a
 * packet only during their call.
 */
export class PacketPool {
  private readonly free: Packet[] = [];

  /** Free packets held for reuse. */
  get size(): number {
    return this.free.length;
  }

  /** A packet with every field at its default, reused when one is free. */
  take(): Packet {
    const packet = this.free.pop();
    if (packet === undefined) return new Packet();
    packet.kind = "data";
    packet.sizeBytes = 0;
    packet.payloadBytes = 0;
    packet.flowId = 0;
    packet.messageId = 0;
    packet.seqInMessage = 0;
    packet.lastOfMessage = false;
    packet.messageBytes = 0;
    packet.srcHost = 0;
    packet.dstHost = 0;
    packet.sl = 0;
    packet.vl = 0;
    packet.fecn = false;
    packet.becn = false;
    packet.ecn = Ecn.notCapable;
    packet.createdPs = 0;
    packet.injectedPs = 0;
    packet.hops = 0;
    packet.outPort = -1;
    packet.control = undefined;
    packet.queueNext = undefined;
    return packet;
  }

  /** Returns a packet nothing refers to any more. */
  give(packet: Packet): void {
    this.free.push(packet);
  }
}
