import type { TimePs } from "@cclab/core-des";
import type { Message } from "./message.js";

/** A message handed to a host, with the id it was given. */
export interface PendingMessage {
  readonly message: Message;
  readonly id: number;
}

/**
 * The messages handed to a host that have not reached their start time yet, taken in time
 * order (ties: the order they were handed over). Messages mostly come in time order: they are
 * appended, and sorted only when one came out of order.
 */
export class MessageArrivals {
  private readonly pending: PendingMessage[] = [];
  /** The first message not yet taken. */
  private cursor = 0;
  private sorted = true;

  /** Adds message `id`. */
  add(message: Message, id: number): void {
    const last = this.pending[this.pending.length - 1];
    if (last !== undefined && last.message.startPs > message.startPs) this.sorted = false;
    this.pending.push({ message, id });
  }

  /** Start time of the next message, ps (+Infinity when none is pending). */
  nextPs(): TimePs {
    if (!this.sorted) this.sort();
    return this.pending[this.cursor]?.message.startPs ?? Number.POSITIVE_INFINITY;
  }

  /** Takes the next message if it starts at or before `nowPs`; else undefined. */
  nextDue(nowPs: TimePs): PendingMessage | undefined {
    const next = this.pending[this.cursor];
    if (next === undefined || next.message.startPs > nowPs) return undefined;
    this.cursor++;
    return next;
  }

  /** Drops the messages taken, once they are most of the array (call after taking). */
  compact(): void {
    if (this.cursor > 64 && this.cursor * 2 > this.pending.length) {
      this.pending.splice(0, this.cursor);
      this.cursor = 0;
    }
  }

  private sort(): void {
    const pending = this.pending.slice(this.cursor);
    pending.sort((a, b) => a.message.startPs - b.message.startPs || a.id - b.id);
    this.pending.length = 0;
    this.pending.push(...pending);
    this.cursor = 0;
    this.sorted = true;
  }
}
