import { MAX_TIME_PS, type TimePs } from "./time.js";
import { resized } from "./typed-array.js";

/**
 * Handler of one event kind. It receives the event's target index (which component, port,
 * flow…) and its kind, and reads the current time from the scheduler. Handlers are registered
 * once per kind, so scheduling an event allocates nothing (DESIGN.md, hot-loop rules).
 */
export type EventHandler = (target: number, kind: number) => void;

/** An integer event kind returned by {@link Scheduler.defineKind}. */
export type EventKind = number;

declare const eventHandleBrand: unique symbol;
/**
 * Opaque handle of an event scheduled with {@link Scheduler.scheduleCancellable}. A handle
 * stays safe to use after its event ran or was cancelled: cancelling it then is a no-op that
 * returns false.
 */
export type EventHandle = number & { readonly [eventHandleBrand]: true };

/** Why {@link Scheduler.run} returned. */
export type RunOutcome = "empty" | "time" | "stopped";

export interface SchedulerOptions {
  /** Pending events the arrays are sized for at first; they grow by doubling. Default 1024. */
  initialCapacity?: number;
}

export interface RunOptions {
  /** Process events at times ≤ this and then set the clock to it. Default: no limit. */
  untilPs?: TimePs;
  /** Checked after each event; the run stops when it returns true. */
  stopWhen?: () => boolean;
}

// A handle packs the event's slot (low 22 bits) with the low 31 bits of its insertion
// sequence number: a stale handle can only alias a later event in the same slot scheduled
// exactly k·2^31 events later, which a component would have to hold on to for that long.
const SLOT_BITS = 22;
const SLOT_LIMIT = 2 ** SLOT_BITS;
const SEQ_TAG_LIMIT = 2 ** 31;

const FREE = 0;
const PENDING = 1;
const CANCELLED = 2;

/**
 * Heap index from which a pop picks the smaller child with a branch instead of arithmetic:
 * the entries above it (16 Ki × 12 bytes = 192 KiB) stay in a core's L2 cache.
 */
const BRANCHY_FROM = 16_384;

/** Below this many heap entries, cancelled events are left for the pops to discard. */
const COMPACT_MIN_HEAP = 64;

/**
 * The future-event set and event loop.
 *
 * Events are ordered by (time, insertion sequence): events due at the same picosecond run in
 * the order they were scheduled (DESIGN.md, "Determinism"). Storage is struct-of-arrays:
 * - a slot per pending event holds its kind, target, sequence number and state;
 * - a binary min-heap on time holds (time, slot) pairs in a `Float64Array` and an
 *   `Int32Array`;
 * - a FIFO ring of slots (the fast lane) holds the events due at the current time.
 *
 * The heap compares times only. Ties are settled when the clock advances: every heap event
 * due at the new time is moved to the fast lane in sequence order (almost always a single
 * event, found with one extra comparison). Events scheduled for the current time go straight
 * to the lane behind them; they are younger than every event already due then, because those
 * were scheduled before the clock reached now. The sift loops are thus free of tie-breaking.
 *
 * Cancellation marks the slot; the entry is discarded when it is reached, and the heap is
 * compacted when cancelled entries outnumber live ones, so re-armed timers cannot make it
 * grow without bound.
 */
export class Scheduler {
  private now: TimePs = 0;
  private seq = 0;
  private processedCount = 0;
  private stopRequested = false;
  private cancelled = 0;

  // Slots.
  private capacity: number;
  private slotCount = 0;
  private slotSeq: Float64Array<ArrayBuffer>;
  private slotKind: Int32Array<ArrayBuffer>;
  private slotTarget: Int32Array<ArrayBuffer>;
  private slotState: Uint8Array<ArrayBuffer>;
  private freeSlots: Int32Array<ArrayBuffer>;
  private freeTop = 0;

  // Binary min-heap on time, 1-based: entry k is (heapTime[k], heapSlot[k]) and its
  // children are 2k and 2k + 1, so siblings never straddle a cache line. During a pop the
  // entry after the last holds +Infinity, a sentinel right child.
  private heapTime: Float64Array<ArrayBuffer>;
  private heapSlot: Int32Array<ArrayBuffer>;
  private heapSize = 0;

  // Fast lane: ring buffer of slots due at the current time.
  private lane: Int32Array<ArrayBuffer>;
  private laneHead = 0;
  private laneCount = 0;

  private handlers: EventHandler[] = [];
  private kindNames: string[] = [];

  private takenKind: EventKind = -1;
  private takenTarget = -1;

  constructor(options: SchedulerOptions = {}) {
    const capacity = options.initialCapacity ?? 1024;
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > SLOT_LIMIT) {
      throw new RangeError(`initialCapacity must be an integer in [1, ${SLOT_LIMIT}]`);
    }
    this.capacity = capacity;
    this.slotSeq = new Float64Array(capacity);
    this.slotKind = new Int32Array(capacity);
    this.slotTarget = new Int32Array(capacity);
    this.slotState = new Uint8Array(capacity);
    this.freeSlots = new Int32Array(capacity);
    this.heapTime = new Float64Array(capacity + 2);
    this.heapSlot = new Int32Array(capacity + 2);
    this.lane = new Int32Array(64);
  }

  /** The current simulated time. */
  get nowPs(): TimePs {
    return this.now;
  }

  /** Events dispatched (or taken by {@link popNext}) so far; cancelled events do not count. */
  get processed(): number {
    return this.processedCount;
  }

  /** Kind of the event last taken by {@link popNext} (−1 before the first). */
  get lastKind(): EventKind {
    return this.takenKind;
  }

  /** Target of the event last taken by {@link popNext} (−1 before the first). */
  get lastTarget(): number {
    return this.takenTarget;
  }

  /** Live events waiting to run (cancelled ones excluded). */
  get pending(): number {
    return this.heapSize + this.laneCount - this.cancelled;
  }

  /**
   * Registers a kind of event and its handler; returns the integer kind to schedule it with.
   * The name appears in error messages.
   */
  defineKind(name: string, handler: EventHandler): EventKind {
    this.handlers.push(handler);
    this.kindNames.push(name);
    return this.handlers.length - 1;
  }

  /**
   * Schedules an event of `kind` for `target` at absolute time `atPs`.
   *
   * Returns nothing on purpose: a handle can exceed V8's small-integer range, and returning
   * it from a call that is not inlined would allocate a number on every event. Use
   * {@link scheduleCancellable} for the events that may be cancelled (timers).
   * @throws RangeError when `atPs` is before now, not an integer, or beyond 2^53 − 1 ps;
   *   or when `kind` was not defined or `target` is not a 32-bit integer.
   */
  schedule(atPs: TimePs, kind: EventKind, target: number): void {
    this.insert(atPs, kind, target);
  }

  /** Schedules an event `delayPs` after now (see {@link schedule}). */
  scheduleIn(delayPs: TimePs, kind: EventKind, target: number): void {
    if (!(delayPs >= 0)) {
      throw new RangeError(`event delay must be ≥ 0 ps, got ${delayPs}`);
    }
    this.insert(this.now + delayPs, kind, target);
  }

  /** Like {@link schedule}, and returns a handle for {@link cancel}. */
  scheduleCancellable(atPs: TimePs, kind: EventKind, target: number): EventHandle {
    const slot = this.insert(atPs, kind, target);
    return (slot + (this.slotSeq[slot]! % SEQ_TAG_LIMIT) * SLOT_LIMIT) as EventHandle;
  }

  /** True while the event behind `handle` is scheduled and not yet run or cancelled. */
  isPending(handle: EventHandle): boolean {
    return this.liveSlot(handle) >= 0;
  }

  /** Cancels a pending event; returns false (and does nothing) if it already ran or was cancelled. */
  cancel(handle: EventHandle): boolean {
    const slot = this.liveSlot(handle);
    if (slot < 0) return false;
    this.slotState[slot] = CANCELLED;
    this.cancelled++;
    if (this.heapSize >= COMPACT_MIN_HEAP && this.cancelled * 2 > this.heapSize) {
      this.compact();
    }
    return true;
  }

  /** Time of the next live event, or `undefined` when none is pending. */
  nextEventTimePs(): TimePs | undefined {
    const state = this.slotState;
    while (this.laneCount !== 0) {
      const slot = this.lane[this.laneHead]!;
      if (state[slot] === PENDING) return this.now;
      this.laneShift();
      this.discard(slot);
    }
    while (this.heapSize !== 0) {
      const slot = this.heapSlot[1]!;
      if (state[slot] === PENDING) return this.heapTime[1]!;
      this.heapPop();
      this.discard(slot);
    }
    return undefined;
  }

  /**
   * Takes the next live event without dispatching it: advances the clock to its time and
   * sets {@link lastKind} and {@link lastTarget}. Returns false when no event is pending.
   * For custom loops and tests; {@link run} is the usual way to drive a simulation.
   */
  popNext(): boolean {
    // The take logic is written out here and in `loop` on purpose: sharing it through one
    // helper measured 4–5 % slower on both paths (hold model, Node 20, same process).
    for (;;) {
      let slot: number;
      if (this.laneCount !== 0) {
        slot = this.laneShift();
        if (this.slotState[slot] !== PENDING) {
          this.discard(slot);
          continue;
        }
      } else if (this.heapSize !== 0) {
        const t = this.heapTime[1]!;
        slot = this.heapPop();
        if (this.slotState[slot] !== PENDING) {
          this.discard(slot); // a cancelled event does not move the clock
          continue;
        }
        this.now = t;
        if (this.heapSize !== 0 && this.heapTime[1] === t) {
          this.gatherTies(slot, t);
          continue;
        }
      } else {
        return false;
      }
      this.takenKind = this.slotKind[slot]!;
      this.takenTarget = this.slotTarget[slot]!;
      this.freeSlot(slot);
      this.processedCount++;
      return true;
    }
  }

  /** Asks a running {@link run} to return after the current event. */
  stop(): void {
    this.stopRequested = true;
  }

  /**
   * Dispatches events in (time, sequence) order until one of:
   * - `"time"`: the next event is later than `untilPs`, or none is left and `untilPs` was
   *   given; the clock is then set to `untilPs`;
   * - `"empty"`: no event is left (without `untilPs`; the clock stays at the last event);
   * - `"stopped"`: `stopWhen` returned true or a handler called {@link stop}; the clock stays
   *   at the time of the event that stopped the run.
   */
  run(options: RunOptions = {}): RunOutcome {
    const untilPs = options.untilPs;
    if (untilPs === undefined) return this.loop(MAX_TIME_PS, options.stopWhen);
    if (!(untilPs >= this.now) || Math.floor(untilPs) !== untilPs || untilPs > MAX_TIME_PS) {
      throw new RangeError(
        `run untilPs must be an integer time ≥ now (${this.now} ps) and ≤ 2^53 − 1, got ${untilPs}`,
      );
    }
    if (this.loop(untilPs, options.stopWhen) === "stopped") return "stopped";
    this.now = untilPs;
    return "time";
  }

  /** Runs until no event is pending. */
  runUntilEmpty(): RunOutcome {
    return this.run();
  }

  /** Runs all events at times ≤ `untilPs`, then sets the clock to `untilPs` (unless stopped). */
  runUntil(untilPs: TimePs): RunOutcome {
    return this.run({ untilPs });
  }

  // The event loop. It calls only small helpers, which V8 inlines, so its speed does not
  // depend on being inlined into a caller. Measured (hold model, Node 20, same process,
  // relative to a bare heap): 0.72 of its speed at 1k pending; a loop that called a separate
  // take-one-event method, or used # private fields instead of TypeScript `private`, lost
  // 4–10 points more. Returns "empty" when nothing is left that is due by `untilPs`.
  private loop(untilPs: TimePs, stopWhen: (() => boolean) | undefined): RunOutcome {
    this.stopRequested = false;
    const handlers = this.handlers;
    for (;;) {
      let slot: number;
      if (this.laneCount !== 0) {
        slot = this.laneShift();
        if (this.slotState[slot] !== PENDING) {
          this.discard(slot);
          continue;
        }
      } else if (this.heapSize !== 0) {
        const t = this.heapTime[1]!;
        if (t > untilPs) return "empty";
        slot = this.heapPop();
        if (this.slotState[slot] !== PENDING) {
          this.discard(slot); // a cancelled event does not move the clock
          continue;
        }
        this.now = t;
        if (this.heapSize !== 0 && this.heapTime[1] === t) {
          this.gatherTies(slot, t);
          continue;
        }
      } else {
        return "empty";
      }
      const kind = this.slotKind[slot]!;
      const target = this.slotTarget[slot]!;
      this.freeSlot(slot);
      this.processedCount++;
      handlers[kind]!(target, kind);
      if (this.stopRequested || stopWhen?.()) {
        this.stopRequested = false;
        return "stopped";
      }
    }
  }

  // Kept small so that V8 can inline it together with the pop into a caller's loop (its
  // inlining budget is per optimised function): one combined check, errors built elsewhere.
  private insert(atPs: TimePs, kind: EventKind, target: number): number {
    if (
      !(atPs >= this.now && atPs <= MAX_TIME_PS && Math.floor(atPs) === atPs) ||
      !(kind >= 0 && kind < this.handlers.length && (kind | 0) === kind) ||
      (target | 0) !== target
    ) {
      this.badEvent(atPs, kind, target);
    }
    const slot = this.allocSlot();
    this.slotSeq[slot] = this.seq++;
    this.slotKind[slot] = kind;
    this.slotTarget[slot] = target;
    this.slotState[slot] = PENDING;
    if (atPs === this.now) this.lanePush(slot);
    else this.heapPush(atPs, slot);
    return slot;
  }

  // The clock has just advanced to `timePs`, `first` was popped and more heap events are due
  // at that time. Moves them all to the fast lane in sequence order, where the loop takes
  // them (cancelled ones included, which it discards). The lane is empty here (the clock
  // only advances once it is drained), so restarting it at index 0 lets the insertion sort
  // index it directly. A batch is a few events.
  private gatherTies(first: number, timePs: TimePs): void {
    const slotSeq = this.slotSeq;
    this.laneHead = 0;
    this.lanePush(first);
    while (this.heapSize !== 0 && this.heapTime[1] === timePs) {
      const slot = this.heapPop();
      const seq = slotSeq[slot]!;
      this.lanePush(slot);
      const lane = this.lane;
      let i = this.laneCount - 1;
      while (i > 0 && slotSeq[lane[i - 1]!]! > seq) {
        lane[i] = lane[i - 1]!;
        i--;
      }
      lane[i] = slot;
    }
  }

  private discard(slot: number): void {
    this.cancelled--;
    this.freeSlot(slot);
  }

  private liveSlot(handle: EventHandle): number {
    if (!(handle >= 0) || !Number.isSafeInteger(handle)) return -1;
    const slot = handle % SLOT_LIMIT;
    const tag = (handle - slot) / SLOT_LIMIT;
    if (slot >= this.slotCount || this.slotState[slot] !== PENDING) return -1;
    return this.slotSeq[slot]! % SEQ_TAG_LIMIT === tag ? slot : -1;
  }

  private allocSlot(): number {
    if (this.freeTop !== 0) return this.freeSlots[--this.freeTop]!;
    if (this.slotCount === this.capacity) this.growSlots();
    return this.slotCount++;
  }

  private freeSlot(slot: number): void {
    this.slotState[slot] = FREE;
    this.freeSlots[this.freeTop++] = slot;
  }

  private growSlots(): void {
    if (this.capacity >= SLOT_LIMIT) {
      throw new RangeError(`more than ${SLOT_LIMIT} events pending: the scheduler's limit`);
    }
    const capacity = Math.min(this.capacity * 2, SLOT_LIMIT);
    this.slotSeq = resized(this.slotSeq, capacity);
    this.slotKind = resized(this.slotKind, capacity);
    this.slotTarget = resized(this.slotTarget, capacity);
    this.slotState = resized(this.slotState, capacity);
    this.freeSlots = resized(this.freeSlots, capacity);
    this.heapTime = resized(this.heapTime, capacity + 2);
    this.heapSlot = resized(this.heapSlot, capacity + 2);
    this.capacity = capacity;
  }

  // Sift-up. Times alone decide: ties are settled later, in gatherTies.
  private heapPush(timePs: TimePs, slot: number): void {
    const heapTime = this.heapTime;
    const heapSlot = this.heapSlot;
    let k = ++this.heapSize;
    while (k > 1) {
      const parent = k >> 1;
      const parentTime = heapTime[parent]!;
      if (parentTime <= timePs) break;
      heapTime[k] = parentTime;
      heapSlot[k] = heapSlot[parent]!;
      k = parent;
    }
    heapTime[k] = timePs;
    heapSlot[k] = slot;
  }

  // Removes the root and returns its slot. Bottom-up variant: walk the hole from the root to
  // a leaf along the smaller children (one comparison per level instead of two), then sift
  // the former last entry up from there; it rarely rises far, having been a leaf itself.
  //
  // Choosing the smaller child: with random times the comparison is a coin flip that a
  // branch predictor gets wrong half the time, so in the upper levels, which stay in cache,
  // the choice is arithmetic (`child += +(right < left)`). In the deep levels of a large heap
  // the loads miss the cache, and a predicted branch lets the CPU start the next level's
  // load early, which pays more than the mispredictions cost. Measured on bare heaps (hold
  // model, Node 20): branch-free 16.3 / 7.9 / 2.0 M ops/s at 1k / 100k / 1M pending,
  // branchy 10.8 / 6.0 / 3.1, this hybrid 16.3 / 8.1 / 3.5.
  private heapPop(): number {
    const heapTime = this.heapTime;
    const heapSlot = this.heapSlot;
    const top = heapSlot[1]!;
    const n = --this.heapSize;
    const lastTime = heapTime[n + 1]!;
    const lastSlot = heapSlot[n + 1]!;
    heapTime[n + 1] = Number.POSITIVE_INFINITY;
    let hole = 1;
    let child = 2;
    const branchFreeEnd = n < BRANCHY_FROM ? n : BRANCHY_FROM - 1;
    while (child <= branchFreeEnd) {
      child += +(heapTime[child + 1]! < heapTime[child]!);
      heapTime[hole] = heapTime[child]!;
      heapSlot[hole] = heapSlot[child]!;
      hole = child;
      child = 2 * hole;
    }
    while (child <= n) {
      if (heapTime[child + 1]! < heapTime[child]!) child++;
      heapTime[hole] = heapTime[child]!;
      heapSlot[hole] = heapSlot[child]!;
      hole = child;
      child = 2 * hole;
    }
    while (hole > 1) {
      const parent = hole >> 1;
      const parentTime = heapTime[parent]!;
      if (parentTime <= lastTime) break;
      heapTime[hole] = parentTime;
      heapSlot[hole] = heapSlot[parent]!;
      hole = parent;
    }
    heapTime[hole] = lastTime;
    heapSlot[hole] = lastSlot;
    return top;
  }

  // Drops cancelled entries from the heap and restores heap order bottom-up (Floyd), O(n).
  private compact(): void {
    const heapTime = this.heapTime;
    const heapSlot = this.heapSlot;
    const state = this.slotState;
    let kept = 0;
    for (let k = 1; k <= this.heapSize; k++) {
      const slot = heapSlot[k]!;
      if (state[slot] === PENDING) {
        kept++;
        heapTime[kept] = heapTime[k]!;
        heapSlot[kept] = slot;
      } else {
        this.discard(slot);
      }
    }
    this.heapSize = kept;
    for (let k = kept >> 1; k >= 1; k--) this.siftDown(k);
  }

  private siftDown(start: number): void {
    const heapTime = this.heapTime;
    const heapSlot = this.heapSlot;
    const n = this.heapSize;
    const time = heapTime[start]!;
    const slot = heapSlot[start]!;
    let k = start;
    for (;;) {
      let child = 2 * k;
      if (child > n) break;
      if (child < n && heapTime[child + 1]! < heapTime[child]!) child++;
      if (heapTime[child]! >= time) break;
      heapTime[k] = heapTime[child]!;
      heapSlot[k] = heapSlot[child]!;
      k = child;
    }
    heapTime[k] = time;
    heapSlot[k] = slot;
  }

  private lanePush(slot: number): void {
    const mask = this.lane.length - 1;
    if (this.laneCount > mask) {
      const grown = new Int32Array(this.lane.length * 2);
      for (let i = 0; i < this.laneCount; i++) {
        grown[i] = this.lane[(this.laneHead + i) & mask]!;
      }
      this.lane = grown;
      this.laneHead = 0;
      this.lane[this.laneCount++] = slot;
      return;
    }
    this.lane[(this.laneHead + this.laneCount++) & mask] = slot;
  }

  private laneShift(): number {
    const slot = this.lane[this.laneHead]!;
    this.laneHead = (this.laneHead + 1) & (this.lane.length - 1);
    this.laneCount--;
    return slot;
  }

  private badEvent(atPs: number, kind: number, target: number): never {
    if (!(kind >= 0 && kind < this.handlers.length && (kind | 0) === kind)) {
      throw new RangeError(
        `unknown event kind ${kind}: define it with defineKind() first (${this.handlers.length} defined)`,
      );
    }
    const name = this.kindNames[kind];
    if (atPs < this.now) {
      throw new RangeError(
        `cannot schedule ${name} at ${atPs} ps: it is in the past (now is ${this.now} ps)`,
      );
    }
    if (!(atPs <= MAX_TIME_PS && Math.floor(atPs) === atPs)) {
      throw new RangeError(
        `cannot schedule ${name} at ${atPs} ps: event times must be integer picoseconds ≤ 2^53 − 1`,
      );
    }
    throw new RangeError(`cannot schedule ${name}: target must be a 32-bit integer, got ${target}`);
  }
}
