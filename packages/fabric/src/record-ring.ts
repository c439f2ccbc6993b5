/**
 * A growable FIFO of fixed-size numeric records in one `Float64Array`: the delay lines of a
 * link (the times of its packets in flight, its returning flow control) keep their numbers
 * here rather than in objects or a JS array, where V8 boxes every double that is not a small
 * integer (times in picoseconds pass 2^31 after 2.1 ms) and each box is one more cache miss.
 */
export class RecordRing {
  /** The records: record `k` of the ring occupies `data[index .. index + stride)`. */
  data: Float64Array<ArrayBuffer>;
  private head = 0;
  private count = 0;
  private capacity: number;

  constructor(
    readonly stride: number,
    initialRecords = 16,
  ) {
    let capacity = 1;
    while (capacity < initialRecords) capacity *= 2;
    this.capacity = capacity;
    this.data = new Float64Array(capacity * stride);
  }

  get length(): number {
    return this.count;
  }

  /** Index in `data` of the first record (meaningful only when not empty). */
  headIndex(): number {
    return this.head * this.stride;
  }

  /** Appends a record and returns its index in `data`, for the caller to fill. */
  pushIndex(): number {
    if (this.count === this.capacity) this.grow();
    return ((this.head + this.count++) & (this.capacity - 1)) * this.stride;
  }

  /** Drops the first record. */
  shift(): void {
    this.head = (this.head + 1) & (this.capacity - 1);
    this.count--;
  }

  private grow(): void {
    const old = this.data;
    const stride = this.stride;
    const data = new Float64Array(old.length * 2);
    for (let k = 0; k < this.count; k++) {
      const from = ((this.head + k) & (this.capacity - 1)) * stride;
      for (let j = 0; j < stride; j++) data[k * stride + j] = old[from + j]!;
    }
    this.data = data;
    this.head = 0;
    this.capacity *= 2;
  }
}
