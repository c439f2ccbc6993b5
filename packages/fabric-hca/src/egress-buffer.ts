import type { TimePs } from "@cclab/core-des";
import { IntFifo, NO_PACKET, type PacketId, type Packets } from "@cclab/fabric";

/**
 * The size and PAUSE watermarks of a host's egress buffer, per VL (`HcaConfig.egressBuffer`).
 * IBM's E2CM slides give the adapter an egress buffer of 150 KB with PAUSE at a high watermark
 * of 140 KB and a low one of 130 KB (seed 003_b214e58ba856b6a6.txt, L309–314).
 */
export interface EgressBufferConfig {
  /** Bytes the egress FIFO of one VL may hold. */
  readonly bytes: number;
  /** The FIFO pauses its queue pairs once it holds more than this (high watermark). */
  readonly xoffBytes: number;
  /** ... and lets them go on once it holds this or less (low watermark). */
  readonly xonBytes: number;
}

/** The largest `bytes`: the room is kept in a 32-bit integer column. */
const MAX_EGRESS_BYTES = 2 ** 31 - 1;

/**
 * What is wrong with `config` (naming the field `where.…` and what is allowed), or undefined.
 * `packetBytes` is the largest packet (mtuBytes + headerBytes), which the FIFO must hold.
 */
export function egressBufferProblem(
  config: EgressBufferConfig | null,
  packetBytes: number,
  where: string,
): string | undefined {
  if (config === null) return undefined;
  if (typeof config !== "object") {
    return `${where} must be { bytes, xoffBytes, xonBytes } or null, got ${String(config)}`;
  }
  const keys = Object.keys(config).filter((k) => !["bytes", "xoffBytes", "xonBytes"].includes(k));
  if (keys.length !== 0) {
    return `${where}: unknown key "${keys[0]}"; allowed: bytes, xoffBytes, xonBytes`;
  }
  for (const [name, min] of [
    ["bytes", 1],
    ["xoffBytes", 1],
    ["xonBytes", 0],
  ] as const) {
    const value = config[name];
    if (!Number.isInteger(value) || value < min || value > MAX_EGRESS_BYTES) {
      return `${where}.${name} must be a whole number of bytes in ${min}..${MAX_EGRESS_BYTES}, got ${String(value)}`;
    }
  }
  const { bytes, xoffBytes, xonBytes } = config;
  if (bytes < packetBytes) {
    return `${where}.bytes (${bytes}) must hold one full packet (mtuBytes + headerBytes = ${packetBytes})`;
  }
  if (xoffBytes > bytes) {
    return `${where}.xoffBytes (${xoffBytes}) must be ≤ bytes (${bytes})`;
  }
  if (xonBytes >= xoffBytes) {
    return `${where}.xonBytes (${xonBytes}) must be < xoffBytes (${xoffBytes})`;
  }
  return undefined;
}

/**
 * A host's egress buffer (docs/model.md, "Hosts"): one FIFO of data packets per VL between the
 * queue pairs' CC gates (the slides' rate limiters) and the uplink, each with PAUSE at its
 * watermarks. A FIFO goes XOFF when, just after a packet joins it, it holds more than
 * `xoffBytes`, and XON when, just after a packet leaves it, an XOFF FIFO holds `xonBytes` or
 * less: the hysteresis of the switches' PFC (docs/model.md, "Flow control"), with no delay,
 * since both ends are in the adapter. A packet leaves its FIFO when it starts on the uplink.
 *
 * `xoff` and `roomBytes` are what the queue pairs' side sees of each FIFO ({@link EgressHop}
 * hands them to the send scheduler as the paused state and credits of the hop into the FIFOs).
 */
export class EgressBuffer {
  readonly vlCount: number;
  readonly config: EgressBufferConfig;
  /** Per VL: 1 while the FIFO is XOFF (its queue pairs may not move packets into it). */
  readonly xoff: Uint8Array<ArrayBuffer>;
  /** Per VL: `bytes` less what the FIFO holds. */
  readonly roomBytes: Int32Array<ArrayBuffer>;
  /** Per VL: the most bytes the FIFO ever held. */
  readonly peakBytes: Float64Array<ArrayBuffer>;
  /** Per VL: how many times the FIFO went XOFF. */
  readonly xoffEvents: Float64Array<ArrayBuffer>;
  /** The most bytes every FIFO together ever held. */
  peakTotalBytes = 0;
  /** Packets in every FIFO now. */
  packetCount = 0;
  /** FIFOs that hold a packet now. */
  busyVls = 0;

  private readonly packets: Packets;
  private readonly fifos: IntFifo[];
  private totalBytes = 0;
  /** Per VL: XOFF time of the periods that ended, ps. */
  private readonly xoffPs: Float64Array<ArrayBuffer>;
  /** Per VL: when the XOFF period open now began, ps (−1: none open). */
  private readonly xoffSincePs: Float64Array<ArrayBuffer>;

  constructor(vlCount: number, config: EgressBufferConfig, packets: Packets) {
    this.vlCount = vlCount;
    this.config = config;
    this.packets = packets;
    this.xoff = new Uint8Array(vlCount);
    this.roomBytes = new Int32Array(vlCount).fill(config.bytes);
    this.peakBytes = new Float64Array(vlCount);
    this.xoffEvents = new Float64Array(vlCount);
    this.xoffPs = new Float64Array(vlCount);
    this.xoffSincePs = new Float64Array(vlCount).fill(-1);
    this.fifos = Array.from({ length: vlCount }, () => new IntFifo(4));
  }

  /** True if a packet of `sizeBytes` may join the FIFO of `vl` now: not XOFF, and room for it. */
  canAccept(vl: number, sizeBytes: number): boolean {
    return this.xoff[vl] === 0 && this.roomBytes[vl]! >= sizeBytes;
  }

  /** Bytes the FIFO of `vl` holds now. */
  bytesOn(vl: number): number {
    return this.config.bytes - this.roomBytes[vl]!;
  }

  /** Packets the FIFO of `vl` holds now. */
  packetsOn(vl: number): number {
    return this.fifos[vl]!.length;
  }

  /** The packet at the head of the FIFO of `vl`, or NO_PACKET. */
  head(vl: number): PacketId {
    return this.fifos[vl]!.peek();
  }

  /**
   * `packet` joins the back of the FIFO of its VL now; the FIFO goes XOFF if it now holds more
   * than `xoffBytes`. Throws if it has no room: the caller asks {@link canAccept} first.
   */
  push(packet: PacketId, nowPs: TimePs): void {
    const vl = this.packets.vl[packet]!;
    const size = this.packets.sizeBytes[packet]!;
    const room = this.roomBytes[vl]! - size;
    if (room < 0) {
      throw new Error(
        `egress buffer VL ${vl}: a ${size} B packet joined with ${this.roomBytes[vl]} B of room (a bug)`,
      );
    }
    const fifo = this.fifos[vl]!;
    if (fifo.length === 0) this.busyVls++;
    fifo.push(packet);
    this.packetCount++;
    this.roomBytes[vl] = room;
    const held = this.config.bytes - room;
    if (held > this.peakBytes[vl]!) this.peakBytes[vl] = held;
    this.totalBytes += size;
    if (this.totalBytes > this.peakTotalBytes) this.peakTotalBytes = this.totalBytes;
    if (held > this.config.xoffBytes && this.xoff[vl] === 0) {
      this.xoff[vl] = 1;
      this.xoffEvents[vl]!++;
      this.xoffSincePs[vl] = nowPs;
    }
  }

  /**
   * Takes the head packet of the FIFO of `vl` (it starts on the uplink now); an XOFF FIFO goes
   * XON if it now holds `xonBytes` or less. Returns NO_PACKET when the FIFO is empty.
   */
  shift(vl: number, nowPs: TimePs): PacketId {
    const fifo = this.fifos[vl]!;
    const packet = fifo.shift();
    if (packet === NO_PACKET) return NO_PACKET;
    if (fifo.length === 0) this.busyVls--;
    this.packetCount--;
    const size = this.packets.sizeBytes[packet]!;
    const room = this.roomBytes[vl]! + size;
    this.roomBytes[vl] = room;
    this.totalBytes -= size;
    if (this.xoff[vl] === 1 && this.config.bytes - room <= this.config.xonBytes) {
      this.xoff[vl] = 0;
      this.xoffPs[vl]! += nowPs - this.xoffSincePs[vl]!;
      this.xoffSincePs[vl] = -1;
    }
    return packet;
  }

  /** Time the FIFO of `vl` has been XOFF up to `nowPs`, the period open now included, ps. */
  xoffPsUntil(vl: number, nowPs: TimePs): number {
    const since = this.xoffSincePs[vl]!;
    return this.xoffPs[vl]! + (since >= 0 ? nowPs - since : 0);
  }
}
