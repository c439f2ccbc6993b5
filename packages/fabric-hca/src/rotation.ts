/** What the rotation reads of a queue pair: its head message's arrival and id. */
export interface RotationMember {
  readonly headCreatedPs: number;
  readonly headId: number;
}

/**
 * The queue pairs in a host's send rotation, in order, with a copy of each one's head-message
 * key (arrival time, id) beside it in dense arrays. An oldest-first decision compares the keys of
 * every queue pair in the rotation; reading them from the queue pair objects cost a cache miss or
 * two per queue pair on a large fabric (648-node silent forest: 6.4 queue pairs per decision,
 * and a head time past 2^31 ps lives in a separate heap number), where these arrays hold the
 * keys of a whole rotation in a few cache lines.
 *
 * The keys are copies: whoever changes a member's head while it is in the rotation calls
 * {@link headChangedAt}.
 */
export class Rotation<T extends RotationMember> {
  private items: (T | undefined)[];
  private createdPs: Float64Array<ArrayBuffer>;
  private ids: Float64Array<ArrayBuffer>;
  private head = 0;
  private count = 0;

  constructor(initialCapacity = 8) {
    let capacity = 1;
    while (capacity < initialCapacity) capacity *= 2;
    this.items = new Array<T | undefined>(capacity);
    this.createdPs = new Float64Array(capacity);
    this.ids = new Float64Array(capacity);
  }

  get length(): number {
    return this.count;
  }

  /** The member `i` places behind the front (0 = the front). */
  at(i: number): T | undefined {
    if (i < 0 || i >= this.count) return undefined;
    return this.items[(this.head + i) & (this.items.length - 1)];
  }

  /** How many places behind the front `item` is, or −1 if it is not in the rotation. */
  indexOf(item: T): number {
    const mask = this.items.length - 1;
    for (let k = 0; k < this.count; k++) {
      if (this.items[(this.head + k) & mask] === item) return k;
    }
    return -1;
  }

  /** Adds `item` at the back, with its head key as it is now. */
  push(item: T): void {
    if (this.count === this.items.length) this.grow();
    const j = (this.head + this.count) & (this.items.length - 1);
    this.items[j] = item;
    this.createdPs[j] = item.headCreatedPs;
    this.ids[j] = item.headId;
    this.count++;
  }

  /** Removes and returns the front member; undefined when empty. */
  shift(): T | undefined {
    if (this.count === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) & (this.items.length - 1);
    this.count--;
    return item;
  }

  /** Removes the member `i` places behind the front, keeping the order of the rest. */
  removeAt(i: number): T | undefined {
    if (i < 0 || i >= this.count) return undefined;
    const mask = this.items.length - 1;
    const { items, createdPs, ids } = this;
    const item = items[(this.head + i) & mask];
    for (let k = i; k < this.count - 1; k++) {
      const to = (this.head + k) & mask;
      const from = (this.head + k + 1) & mask;
      items[to] = items[from];
      createdPs[to] = createdPs[from]!;
      ids[to] = ids[from]!;
    }
    items[(this.head + this.count - 1) & mask] = undefined;
    this.count--;
    return item;
  }

  /** Copies the head key of the member `i` places behind the front again (its head moved on). */
  headChangedAt(i: number): void {
    const j = (this.head + i) & (this.items.length - 1);
    const item = this.items[j]!;
    this.createdPs[j] = item.headCreatedPs;
    this.ids[j] = item.headId;
  }

  /**
   * Whether member `i`'s head message arrived before member `j`'s. Ids, which follow the order
   * the host was handed its messages, break ties.
   */
  before(i: number, j: number): boolean {
    const mask = this.items.length - 1;
    const a = (this.head + i) & mask;
    const b = (this.head + j) & mask;
    const createdPs = this.createdPs;
    return (
      createdPs[a]! < createdPs[b]! ||
      (createdPs[a] === createdPs[b] && this.ids[a]! < this.ids[b]!)
    );
  }

  /** Position of the member whose head message arrived first (the first such), or −1 if empty. */
  oldest(): number {
    if (this.count === 0) return -1;
    const mask = this.items.length - 1;
    const { createdPs, ids } = this;
    let best = this.head;
    let bestAt = 0;
    for (let k = 1; k < this.count; k++) {
      const j = (this.head + k) & mask;
      if (
        createdPs[j]! < createdPs[best]! ||
        (createdPs[j] === createdPs[best] && ids[j]! < ids[best]!)
      ) {
        best = j;
        bestAt = k;
      }
    }
    return bestAt;
  }

  private grow(): void {
    const mask = this.items.length - 1;
    const capacity = this.items.length * 2;
    const items = new Array<T | undefined>(capacity);
    const createdPs = new Float64Array(capacity);
    const ids = new Float64Array(capacity);
    for (let i = 0; i < this.count; i++) {
      const j = (this.head + i) & mask;
      items[i] = this.items[j];
      createdPs[i] = this.createdPs[j]!;
      ids[i] = this.ids[j]!;
    }
    this.items = items;
    this.createdPs = createdPs;
    this.ids = ids;
    this.head = 0;
  }
}
