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
 * a hop changes (`vl`, `outPort`, `arrivalPs`, `tailArrivalPs`, `hops`) describe the current
 * hop. Sizes are whole bytes on the wire, header included.
 */
export class Packet {
  kind: PacketKind = "data";
  /** Bytes on the wire, header included. */
  sizeBytes = 0;
  /** Application bytes carried (0 for control packets). */
  payloadBytes = 0;
  /** The source–destination–SL queue pair the packet belongs to. */
  flowId = 0;
  messageId = 0;
  /** Index of the packet within its message, from 0. */
  seqInMessage = 0;
  /** True on the last packet of a message. */
  lastOfMessage = false;
  /** Payload bytes of the whole message (lets a receiver see completion under reordering). */
  messageBytes = 0;
  srcHost = 0;
  dstHost = 0;
  /** Service level (InfiniBand) or priority (Ethernet PFC), end to end. */
  sl = 0;
  /** Virtual lane / priority used on the current link. */
  vl = 0;
  /** InfiniBand forward and backward explicit congestion notification bits. */
  fecn = false;
  becn = false;
  ecn: EcnCodePoint = Ecn.notCapable;
  /** The message's arrival at the send queue (MODEL.md: total latency starts here). */
  createdPs: TimePs = 0;
  /** Start of the packet's injection by the source host (in-network latency starts here). */
  injectedPs: TimePs = 0;
  /** When the current hop received the packet's header (after routing latency). */
  arrivalPs: TimePs = 0;
  /** When the packet's last byte reaches (or reached) the current hop. */
  tailArrivalPs: TimePs = 0;
  /** Switch hops traversed so far. */
  hops = 0;
  /** Output port chosen at the current switch, or −1 before routing. */
  outPort = -1;
  /** Scheme-specific contents of a control packet (e.g. a grant's start time). */
  control: unknown = undefined;
}
