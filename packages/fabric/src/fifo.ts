/**
 * A growable ring-buffer FIFO. Queues of packets and delay lines use it so that a push and
 * a shift never copy the array (Array.prototype.shift is O(n)).
 */
export class Fifo<T> {
  private items: (T | undefined)[];
  private head = 0;
  private count = 0;

  constructor(initialCapacity = 8) {
    let capacity = 1;
    while (capacity < initialCapacity) capacity *= 2;
    this.items = new Array<T | undefined>(capacity);
  }

  get length(): number {
    return this.count;
  }

  /** The first item, or undefined when empty. */
  peek(): T | undefined {
    return this.count === 0 ? undefined : this.items[this.head];
  }

  /** The item `i` places behind the head (0 = the head). */
  at(i: number): T | undefined {
    if (i < 0 || i >= this.count) return undefined;
    return this.items[(this.head + i) & (this.items.length - 1)];
  }

  push(item: T): void {
    if (this.count === this.items.length) this.grow();
    this.items[(this.head + this.count) & (this.items.length - 1)] = item;
    this.count++;
  }

  /** Removes and returns the first item; undefined when empty. */
  shift(): T | undefined {
    if (this.count === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) & (this.items.length - 1);
    this.count--;
    return item;
  }

  /** Removes the item `i` places behind the head, keeping the order of the rest. */
  removeAt(i: number): T | undefined {
    if (i < 0 || i >= this.count) return undefined;
    const mask = this.items.length - 1;
    const item = this.items[(this.head + i) & mask];
    for (let k = i; k < this.count - 1; k++) {
      this.items[(this.head + k) & mask] = this.items[(this.head + k + 1) & mask];
    }
    this.items[(this.head + this.count - 1) & mask] = undefined;
    this.count--;
    return item;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = 0; i < this.count; i++) yield this.at(i) as T;
  }

  private grow(): void {
    const old = this.items;
    const mask = old.length - 1;
    const items = new Array<T | undefined>(old.length * 2);
    for (let i = 0; i < this.count; i++) items[i] = old[(this.head + i) & mask];
    this.items = items;
    this.head = 0;
  }
}

/**
 * A growable ring-buffer FIFO of 32-bit integers (packet ids, port numbers): like {@link Fifo}
 * without a JS array, so its contents stay unboxed and dense. `peek` and `shift` return −1 when
 * it is empty.
 */
export class IntFifo {
  private items: Int32Array<ArrayBuffer>;
  private head = 0;
  private count = 0;

  constructor(initialCapacity = 8) {
    let capacity = 1;
    while (capacity < initialCapacity) capacity *= 2;
    this.items = new Int32Array(capacity);
  }

  get length(): number {
    return this.count;
  }

  /** The first item, or −1 when empty. */
  peek(): number {
    return this.count === 0 ? -1 : this.items[this.head]!;
  }

  /** The item `i` places behind the head (0 = the head), or −1 past the end. */
  at(i: number): number {
    if (i < 0 || i >= this.count) return -1;
    return this.items[(this.head + i) & (this.items.length - 1)]!;
  }

  push(item: number): void {
    if (this.count === this.items.length) this.grow();
    this.items[(this.head + this.count) & (this.items.length - 1)] = item;
    this.count++;
  }

  /** Removes and returns the first item; −1 when empty. */
  shift(): number {
    if (this.count === 0) return -1;
    const item = this.items[this.head]!;
    this.head = (this.head + 1) & (this.items.length - 1);
    this.count--;
    return item;
  }

  /** Removes the item `i` places behind the head, keeping the order of the rest; −1 past the end. */
  removeAt(i: number): number {
    if (i < 0 || i >= this.count) return -1;
    const mask = this.items.length - 1;
    const item = this.items[(this.head + i) & mask]!;
    for (let k = i; k < this.count - 1; k++) {
      this.items[(this.head + k) & mask] = this.items[(this.head + k + 1) & mask]!;
    }
    this.count--;
    return item;
  }

  private grow(): void {
    const old = this.items;
    const mask = old.length - 1;
    const items = new Int32Array(old.length * 2);
    for (let i = 0; i < this.count; i++) items[i] = old[(this.head + i) & mask]!;
    this.items = items;
    this.head = 0;
  }
}
