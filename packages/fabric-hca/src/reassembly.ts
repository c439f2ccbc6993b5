import { IdIndex } from "@cclab/core-des";
import { flowIdOf } from "./flow-id.js";

// The fields of a sending queue pair's record in `Reassembly.records`.
enum Source {
  /** The queue pair: srcHost × VLs + SL. */
  Key = 0,
  Delivered = 1,
  Message = 2,
  Bytes = 3,
  Stride = 4,
}

/**
 * A receiving host's record of what each sending queue pair delivered: payload bytes so far,
 * and the bytes of each message not yet complete, so that the packet completing a message is
 * recognised once, whatever order routing delivered its packets in.
 */
export class Reassembly {
  /**
   * One record per sending queue pair that has delivered (`Source` fields), in the order they
   * first did: the payload bytes delivered to this host, the message the queue pair is
   * delivering and its bytes received so far. Messages of a queue pair arrive one after the
   * other unless routing reorders them, in which case the others wait in `partial`. One record,
   * not a map keyed by flow id or three arrays, because every packet received updates it. The
   * records follow the sources a host hears from, not the hosts there are: a table over every
   * possible source grows with the square of the hosts (pages of 256 sources made as needed still
   * held 210 MiB at 4,096 hosts, each packet's record on a page of its own; packages/sim/README.md,
   * "Benchmark").
   */
  private records = new Float64Array(8 * Source.Stride);
  private count = 0;
  /**
   * Record number by queue pair: a flat array over the possible sources up to 1,024 of them
   * (4 KiB per host), a hash table beyond (4,096 hosts would need 64 MiB of flat arrays).
   */
  private readonly recordOf: IdIndex;
  /** The queue pair looked up last and its record's offset: a message arrives mostly in a row. */
  private lastSource = -1;
  private lastRecord = 0;
  /** Bytes received per message id of messages not current in `records`, until they complete. */
  private readonly partial = new Map<number, number>();

  constructor(
    /** The receiving host. */
    private readonly hostIndex: number,
    private readonly hostCount: number,
    private readonly vlCount: number,
  ) {
    this.recordOf = new IdIndex(hostCount * vlCount, 1024);
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
    const r = source === this.lastSource ? this.lastRecord : this.record(source);
    const from = this.records;
    from[r + Source.Delivered]! += payloadBytes;
    if (this.receivedOf(from, r, messageId, payloadBytes) !== messageBytes) return false;
    this.messageReceived(from, r, messageId);
    return true;
  }

  /** Payload bytes delivered so far, per flow id (of the flows that delivered any), by source. */
  deliveredBytesByFlow(): Map<number, number> {
    const offsets = Array.from({ length: this.count }, (_, i) => i * Source.Stride);
    const records = this.records;
    offsets.sort((a, b) => records[a + Source.Key]! - records[b + Source.Key]!);
    const bytes = new Map<number, number>();
    for (const r of offsets) {
      const b = records[r + Source.Delivered]!;
      if (b === 0) continue;
      const k = records[r + Source.Key]!;
      const src = Math.floor(k / this.vlCount);
      const sl = k % this.vlCount;
      bytes.set(flowIdOf(src, this.hostIndex, sl, this.hostCount, this.vlCount), b);
    }
    return bytes;
  }

  // The offset of the record of queue pair `source`, made when it first delivers.
  private record(source: number): number {
    let n = this.recordOf.get(source);
    if (n < 0) {
      n = this.count++;
      if (n * Source.Stride === this.records.length) {
        const grown = new Float64Array(this.records.length * 2);
        grown.set(this.records);
        this.records = grown;
      }
      const r = n * Source.Stride;
      this.records[r + Source.Key] = source;
      this.records[r + Source.Message] = -1;
      this.recordOf.set(source, n);
    }
    this.lastSource = source;
    this.lastRecord = n * Source.Stride;
    return this.lastRecord;
  }

  // Bytes of message `messageId` received so far from the queue pair whose record is at `r` in
  // `from`, with `payload` more.
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

  // Message `messageId` from the queue pair whose record is at `r` in `from` is complete.
  private messageReceived(from: Float64Array, r: number, messageId: number): void {
    if (from[r + Source.Message] === messageId) from[r + Source.Message] = -1;
    else this.partial.delete(messageId);
  }
}
