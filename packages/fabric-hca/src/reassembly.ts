import { flowIdOf } from "./flow-id.js";

// The fields of a sending queue pair's record in `Reassembly.fromSource`.
enum Source {
  Delivered = 0,
  Message = 1,
  Bytes = 2,
  Stride = 3,
}

// Pages of `Reassembly.fromSource`: 256 sending queue pairs each.
enum SourcePage {
  Bits = 8,
  Mask = 255,
  Length = 256,
}

/**
 * A receiving host's record of what each sending queue pair delivered: payload bytes so far,
 * and the bytes of each message not yet complete, so that the packet completing a message is
 * recognised once, whatever order routing delivered its packets in.
 */
export class Reassembly {
  /**
   * Per sending queue pair `k = srcHost * vlCount + sl` (the flow's id less the destination,
   * which is this host), in page `k >> SourcePage.Bits` at `(k & SourcePage.Mask) *
   * Source.Stride + field`: the payload bytes delivered to this host, the message the queue
   * pair is delivering and its bytes received so far. Messages of a queue pair arrive one after
   * the other unless routing reorders them, in which case the others wait in `partial`. One
   * record, not a map keyed by flow id or three arrays, because every packet received updates
   * it: a host sees each source rarely (uniform256: 256 sources), so each array cost a cache
   * miss per packet.
   *
   * A page is made when one of its queue pairs first delivers: one array for every possible
   * source made the hosts' records grow with the square of the hosts, whether they sent or
   * not (a 4096-host fabric: 400 MB and 1.3 s to build).
   */
  private readonly fromSource: (Float64Array | undefined)[];
  /** Bytes received per message id of messages not current in `fromSource`, until they complete. */
  private readonly partial = new Map<number, number>();

  constructor(
    /** The receiving host. */
    private readonly hostIndex: number,
    private readonly hostCount: number,
    private readonly vlCount: number,
  ) {
    this.fromSource = Array.from(
      { length: Math.ceil((hostCount * vlCount) / SourcePage.Length) },
      () => undefined,
    );
  }

  /**
   * A data packet of `payloadBytes` of message `messageId` (`messageBytes` in all) from
   * `srcHost` at service level `sl` has been delivered: returns true when it completes the
   * message, which it does once per message.
   */
  receive(
    srcHost: number,
    sl: number,
    messageId: number,
    payloadBytes: number,
    messageBytes: number,
  ): boolean {
    const source = srcHost * this.vlCount + sl;
    const from = this.fromSource[source >> SourcePage.Bits] ?? this.sourcePage(source);
    const r = (source & SourcePage.Mask) * Source.Stride;
    from[r + Source.Delivered]! += payloadBytes;
    if (this.receivedOf(from, r, messageId, payloadBytes) !== messageBytes) return false;
    this.messageReceived(from, r, messageId);
    return true;
  }

  /** Payload bytes delivered so far, per flow id (of the flows that delivered any). */
  deliveredBytesByFlow(): Map<number, number> {
    const bytes = new Map<number, number>();
    for (let k = 0; k < this.hostCount * this.vlCount; k++) {
      const page = this.fromSource[k >> SourcePage.Bits];
      if (page === undefined) continue;
      const b = page[(k & SourcePage.Mask) * Source.Stride + Source.Delivered]!;
      if (b === 0) continue;
      const src = Math.floor(k / this.vlCount);
      const sl = k % this.vlCount;
      bytes.set(flowIdOf(src, this.hostIndex, sl, this.hostCount, this.vlCount), b);
    }
    return bytes;
  }

  // The page of `fromSource` of queue pair `source`, made when first asked for.
  private sourcePage(source: number): Float64Array {
    const p = source >> SourcePage.Bits;
    let page = this.fromSource[p];
    if (page === undefined) {
      page = new Float64Array(SourcePage.Length * Source.Stride);
      for (let k = 0; k < SourcePage.Length; k++) page[k * Source.Stride + Source.Message] = -1;
      this.fromSource[p] = page;
    }
    return page;
  }

  // Bytes of message `messageId` received so far from the queue pair whose record is at `r` in
  // page `from`, with `payload` more.
  private receivedOf(from: Float64Array, r: number, messageId: number, payload: number): number {
    if (from[r + Source.Message] === messageId) {
      const got = from[r + Source.Bytes]! + payload;
      from[r + Source.Bytes] = got;
      return got;
    }
    const before = this.partial.get(messageId);
    if (before === undefined && from[r + Source.Message] === -1) {
      from[r + Source.Message] = messageId;
      from[r + Source.Bytes] = payload;
      return payload;
    }
    const got = (before ?? 0) + payload;
    this.partial.set(messageId, got);
    return got;
  }

  // Message `messageId` from the queue pair whose record is at `r` in page `from` is complete.
  private messageReceived(from: Float64Array, r: number, messageId: number): void {
    if (from[r + Source.Message] === messageId) from[r + Source.Message] = -1;
    else this.partial.delete(messageId);
  }
}
