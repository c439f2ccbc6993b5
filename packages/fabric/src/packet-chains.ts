import { NO_PACKET, type PacketId, type Packets } from "./packet.js";

/**
 * Many FIFOs of packets, each a chain through `Packets.next` with its head and tail here, by
 * chain index. A packet is in at most one chain at a time (a queue or a link), so the chains
 * cost two integers per queue and none per packet: the built-in VOQs (a switch has ports² of
 * them per VL) keep them in flat arrays instead of a ring buffer per queue, which missed the
 * cache on every hop of a large fabric (uniform256 bench).
 */
export class PacketChains {
  readonly heads: Int32Array<ArrayBuffer>;
  readonly tails: Int32Array<ArrayBuffer>;

  constructor(
    chainCount: number,
    private readonly packets: Packets,
  ) {
    this.heads = new Int32Array(chainCount).fill(NO_PACKET);
    this.tails = new Int32Array(chainCount).fill(NO_PACKET);
  }

  /** Appends `packet` to chain `k`. */
  push(k: number, packet: PacketId): void {
    const next = this.packets.next;
    next[packet] = NO_PACKET;
    const tail = this.tails[k]!;
    if (tail === NO_PACKET) this.heads[k] = packet;
    else next[tail] = packet;
    this.tails[k] = packet;
  }

  /** The first packet of chain `k`, or {@link NO_PACKET}. */
  head(k: number): PacketId {
    return this.heads[k]!;
  }

  /**
   * Removes and returns the first packet of chain `k` (which is not empty). Its `next` is left
   * as it was: `push` sets it when the packet joins a chain again.
   */
  shift(k: number): PacketId {
    const packet = this.heads[k]!;
    const after = this.packets.next[packet]!;
    this.heads[k] = after;
    if (after === NO_PACKET) this.tails[k] = NO_PACKET;
    return packet;
  }
}
