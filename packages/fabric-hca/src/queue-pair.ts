import type { TimePs } from "@cclab/core-des";
import { Fifo, type FlowGate } from "@cclab/fabric";

/** A message waiting in a queue pair: its id, payload bytes and arrival. */
interface QueuedMessage {
  readonly id: number;
  readonly bytes: number;
  readonly createdPs: TimePs;
}

/**
 * One queue pair: the messages from this host to one destination at one SL, and how far its
 * head message has been cut into packets. Its packets go on `vl`, its SL's VL unless a CC
 * sender part moved the flow (`Hca.setFlowVl`); whoever changes `vl` while it is in a send
 * rotation tells the rotation (`SendScheduler.setVl`).
 */
export class QueuePair {
  readonly messages = new Fifo<QueuedMessage>(4);
  /**
   * The head message's id, payload bytes and arrival, copied from it whenever the head changes
   * ({@link headChanged}): following the queue to the message object cost two or three cache
   * misses per queue pair on a large fabric (648-node silent forest, oldest-first: 14 % of the
   * run in the send decision). The rotation keeps a further copy of id and arrival.
   */
  headId = -1;
  headBytes = 0;
  headCreatedPs: TimePs = 0;
  /** Payload bytes of the head message already packetised. */
  sentOfHead = 0;
  queuedBytes = 0;
  /** Payload bytes packetised and started so far. */
  injectedBytes = 0;
  /** True while it has data: in the rotation, or parked until its gate allows it. */
  active = false;
  /** True when its next packet is shorter than a full one (the end of a message). */
  shortHead = false;
  gate: FlowGate | undefined = undefined;
  /** The VL its next packets use. */
  vl: number;

  constructor(
    readonly flowId: number,
    readonly dstHost: number,
    readonly sl: number,
    vl: number,
  ) {
    this.vl = vl;
  }

  /** Adds message `id` of `bytes` payload bytes, which arrived at `createdPs`, at the back. */
  push(id: number, bytes: number, createdPs: TimePs): void {
    this.messages.push({ id, bytes, createdPs });
    if (this.messages.length === 1) this.headChanged();
    this.queuedBytes += bytes;
  }

  /** Payload of the next packet, with packets of at most `mtuBytes` payload. */
  nextPayloadBytes(mtuBytes: number): number {
    return Math.min(mtuBytes, this.headBytes - this.sentOfHead);
  }

  /**
   * The head message's next `payloadBytes` are in a packet: returns true when that was its
   * last, and the next message (if any) is now the head.
   */
  advance(payloadBytes: number): boolean {
    this.sentOfHead += payloadBytes;
    this.queuedBytes -= payloadBytes;
    this.injectedBytes += payloadBytes;
    if (this.sentOfHead !== this.headBytes) return false;
    this.messages.shift();
    this.headChanged();
    this.sentOfHead = 0;
    return true;
  }

  /** Copies the head message's fields (after a message joined an empty queue, or left it). */
  headChanged(): void {
    const head = this.messages.peek();
    if (head === undefined) return;
    this.headId = head.id;
    this.headBytes = head.bytes;
    this.headCreatedPs = head.createdPs;
  }
}
