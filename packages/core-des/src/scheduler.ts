import { MAX_TIME_PS, type TimePs } from "./time.js";
import { resized } from "./typed-array.js";

/**
 * Handler of one event kind. It receives the event's target index (which component, port,
 * flow…) and its kind, and reads the current time from the scheduler. Handlers are registered
 * once per kind, so scheduling an event allocates nothing (docs/model.md, "Performance rules").
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

/**
 * Wall time spent in the handlers of one event kind, estimated from a sample of its events
 * ({@link Scheduler.profileKinds}).
 */
export interface KindProfile {
  /** The name the kind was defined with. */
  readonly kind: string;
  /** Events of this kind dispatched since profiling began. */
  readonly events: number;
  /** Of these, the events whose handler was timed. */
  readonly timedEvents: number;
  /**
   * Estimated wall time in this kind's handlers over all its `events`, in ms: the timed
   * events' mean, less the clock's own cost per reading, times `events`.
   */
  readonly handlerMs: number;
}

/** Events of each kind {@link Scheduler.profileKinds} times one in, unless told otherwise. */
export const PROFILE_SAMPLE_EVERY = 16;

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

// A handle packs the event's slot (low 22 bits) with a generation number in [1, 2^31), drawn
// from a counter of cancellable events and kept in the slot while the event is pending (0 in
// a slot otherwise): a stale handle can only alias an event scheduled with
// scheduleCancellable a multiple of 2^31 − 1 such events later, in the same slot.
const SLOT_BITS = 22;
const SLOT_LIMIT = 2 ** SLOT_BITS;
const GEN_MASK = 0x7fff_ffff;

// The constants the event loop reads are enum members, not module `const`s: bundling (the
// packages' dist, the benchmark) turns a module's top-level `const`s into `var`s, which V8
// then loads from the module context at every use, where esbuild writes an enum member as its
// literal value (uniform256: 3 % fewer instructions per event with literals).

/** Slot states (meaningful while the slot holds an event). */
enum State {
  /** In the calendar, waiting for its time. */
  Queued = 1,
  /** In the fast lane: due at the current time. */
  Due = 2,
  /** In the fast lane, cancelled: discarded when the lane reaches it. */
  Cancelled = 3,
}

enum Chain {
  /** End of a chain of slots. */
  Nil = -1,
}

/** Fewest buckets the calendar shrinks to. */
const MIN_BUCKETS = 16;

/**
 * Average work per calendar dequeue (buckets looked at beyond the first, plus entries walked
 * past by insertions into the middle of a bucket) above which the bucket width is estimated
 * again. A calendar with a good width does about one of either per event (Brown 1988).
 */
const COST_LIMIT = 4;

/** Events a width estimate looks at, from the earliest (Brown 1988 uses 25). */
const WIDTH_SAMPLE_HEAD = 25;
/** Pending events beyond which the width estimate uses a strided sample of them. */
const WIDTH_SAMPLE_MAX = 2048;

/**
 * The future-event set and event loop.
 *
 * Events are ordered by (time, scheduling order): events due at the same picosecond run in
 * the order they were scheduled (docs/model.md, "Determinism"). Storage is struct-of-arrays: a
 * slot per pending event holds its time, kind, target, state, a link to the next slot of the
 * chain it is in, and a generation number for handles. The slots form two structures:
 *
 * - A calendar queue (Brown 1988, "Calendar queues: a fast O(1) priority queue
 *   implementation for the simulation event set problem", CACM 31(10)): an array of buckets,
 *   each a chain of slots sorted by time, FIFO among equal times. An event at time t sits in
 *   bucket ⌊t / width⌋ mod bucketCount, so the buckets are the days of a year that wraps
 *   around; a dequeue looks at the current day and moves on to the next until it meets an
 *   event of the current year. With about as many buckets as events and a width of a few mean
 *   gaps between the earliest events, an insertion or a dequeue touches one or two buckets,
 *   whatever the number of pending events, where a binary heap walks log₂ n levels (the hold
 *   benchmark: 1.4× the heap kernel this replaced at 1k pending, 2× at 100k; README). The
 *   bucket count doubles or halves as
 *   the number of events grows or shrinks; the width is estimated again from the earliest
 *   events when it does, and whenever the measured work per event says the width has gone
 *   stale (the event density changed).
 * - A FIFO "fast lane" of the events due at the current time. When the clock advances to t,
 *   the events of t leave their bucket in one piece (they are consecutive at its head, in
 *   scheduling order) for the lane; events scheduled for the current time join the lane at
 *   its end, behind every event already due then, which were all scheduled earlier.
 *
 * Cancellation unlinks a calendar event from its bucket at once (the bucket is short), and
 * marks a lane event to be discarded when reached, whose slot is freed then.
 */
export class Scheduler {
  private now: TimePs = 0;
  private processedCount = 0;
  private stopRequested = false;

  // Slots.
  private capacity: number;
  private slotCount = 0;
  private slotTime: Float64Array<ArrayBuffer>;
  private slotNext: Int32Array<ArrayBuffer>;
  private slotKind: Int32Array<ArrayBuffer>;
  private slotTarget: Int32Array<ArrayBuffer>;
  private slotState: Uint8Array<ArrayBuffer>;
  private slotGen: Int32Array<ArrayBuffer>;
  private freeSlots: Int32Array<ArrayBuffer>;
  private freeTop = 0;
  private nextGen = 1;

  // Calendar: bucket b is the chain bucketHead[b] → … → bucketTail[b] (tail valid while the
  // head is not NIL). `day` is the bucket of the current day and `dayNumber` its number
  // ⌊t / width⌋ counted from time 0: no pending event has a smaller day number.
  private bucketHead: Int32Array<ArrayBuffer>;
  private bucketTail: Int32Array<ArrayBuffer>;
  private bucketMask: number;
  private widthPs: number;
  private perWidth: number;
  private day = 0;
  private dayNumber = 0;
  private queued = 0;
  private growAbove: number;
  private shrinkBelow = 0;
  // Work accounting since the last width estimate: dequeues left before the next check, and
  // the work counted (buckets skipped, entries walked past) since it.
  private costCountdown: number;
  private costInterval: number;
  private costSteps = 0;

  // Fast lane: a chain of slots due at the current time.
  private laneHead: number = Chain.Nil;
  private laneTail: number = Chain.Nil;
  private laneCount = 0;
  private laneCancelled = 0;

  private handlers: EventHandler[] = [];
  private kindNames: string[] = [];

  // Per-kind profile (profileKinds): 0 while off, else one event in `profileEvery` is timed.
  private profileEvery = 0;
  private profileClockMs = 0;
  private readonly profileEvents: number[] = [];
  private readonly profileTimed: number[] = [];
  private readonly profileMs: number[] = [];

  private takenKind: EventKind = -1;
  private takenTarget = -1;

  constructor(options: SchedulerOptions = {}) {
    const capacity = options.initialCapacity ?? 1024;
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > SLOT_LIMIT) {
      throw new RangeError(`initialCapacity must be an integer in [1, ${SLOT_LIMIT}]`);
    }
    this.capacity = capacity;
    this.slotTime = new Float64Array(capacity);
    this.slotNext = new Int32Array(capacity);
    this.slotKind = new Int32Array(capacity);
    this.slotTarget = new Int32Array(capacity);
    this.slotState = new Uint8Array(capacity);
    this.slotGen = new Int32Array(capacity);
    this.freeSlots = new Int32Array(capacity);
    this.bucketHead = new Int32Array(MIN_BUCKETS).fill(Chain.Nil);
    this.bucketTail = new Int32Array(MIN_BUCKETS).fill(Chain.Nil);
    this.bucketMask = MIN_BUCKETS - 1;
    this.growAbove = 2 * MIN_BUCKETS;
    // Until the first estimate: 1 ns days. Any width is correct; the first resize or cost
    // check replaces it with one measured from the events.
    this.widthPs = 1000;
    this.perWidth = 1 / 1000;
    this.costInterval = 4 * MIN_BUCKETS;
    this.costCountdown = this.costInterval;
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
    return this.queued + this.laneCount - this.laneCancelled;
  }

  /**
   * Registers a kind of event and its handler; returns the integer kind to schedule it with.
   * The name appears in error messages.
   */
  defineKind(name: string, handler: EventHandler): EventKind {
    const kind = this.handlers.length;
    this.kindNames.push(name);
    this.handlers.push(this.profileEvery === 0 ? handler : this.profiled(kind, handler));
    return kind;
  }

  /**
   * Starts timing event handlers, per kind, for {@link kindProfile}: one event in
   * `sampleEvery` of each kind is timed with `performance.now()`, kinds defined later
   * included. The events and their order do not change. The clock's own cost (about 0.05 µs
   * a reading once optimised) is taken off the estimate; an untimed event pays one more call.
   * @throws RangeError when `sampleEvery` is not an integer ≥ 1, or profiling is on already.
   */
  profileKinds(sampleEvery = PROFILE_SAMPLE_EVERY): void {
    if (!Number.isInteger(sampleEvery) || sampleEvery < 1) {
      throw new RangeError(`sampleEvery must be an integer ≥ 1, got ${sampleEvery}`);
    }
    if (this.profileEvery !== 0) throw new RangeError("the event kinds are profiled already");
    this.profileEvery = sampleEvery;
    for (let kind = 0; kind < this.handlers.length; kind++) {
      this.handlers[kind] = this.profiled(kind, this.handlers[kind]!);
    }
  }

  /** Time per event kind since {@link profileKinds}, largest estimated time first. */
  kindProfile(): KindProfile[] {
    // Measured now rather than when profiling starts: a clock reading costs about 0.4 µs
    // before V8 has optimised the code that takes it and about 0.05 µs after.
    if (this.profileClockMs === 0) this.profileClockMs = clockCostMs();
    const out: KindProfile[] = [];
    for (let kind = 0; kind < this.profileEvents.length; kind++) {
      const events = this.profileEvents[kind]!;
      const timed = this.profileTimed[kind]!;
      const netMs = Math.max(0, this.profileMs[kind]! - timed * this.profileClockMs);
      out.push({
        kind: this.kindNames[kind]!,
        events,
        timedEvents: timed,
        handlerMs: timed === 0 ? 0 : (netMs / timed) * events,
      });
    }
    return out.sort((a, b) => b.handlerMs - a.handlerMs || b.events - a.events);
  }

  // Wraps a kind's handler to count its events and time one in `profileEvery`.
  private profiled(kind: number, handler: EventHandler): EventHandler {
    this.profileEvents[kind] = 0;
    this.profileTimed[kind] = 0;
    this.profileMs[kind] = 0;
    const every = this.profileEvery;
    const events = this.profileEvents;
    return (target, k) => {
      if (events[kind]++ % every !== 0) {
        handler(target, k);
        return;
      }
      const start = performance.now();
      handler(target, k);
      this.profileMs[kind]! += performance.now() - start;
      this.profileTimed[kind]!++;
    };
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
    const gen = this.nextGen;
    this.nextGen = gen === GEN_MASK ? 1 : gen + 1;
    this.slotGen[slot] = gen;
    return (slot + gen * SLOT_LIMIT) as EventHandle;
  }

  /** True while the event behind `handle` is scheduled and not yet run or cancelled. */
  isPending(handle: EventHandle): boolean {
    return this.liveSlot(handle) >= 0;
  }

  /** Cancels a pending event; returns false (and does nothing) if it already ran or was cancelled. */
  cancel(handle: EventHandle): boolean {
    const slot = this.liveSlot(handle);
    if (slot < 0) return false;
    if (this.slotState[slot] === State.Due) {
      this.slotState[slot] = State.Cancelled;
      this.laneCancelled++;
    } else {
      this.unlink(slot);
      this.freeSlot(slot);
      if (--this.queued < this.shrinkBelow) this.rebuild((this.bucketMask + 1) >> 1);
    }
    return true;
  }

  /** Time of the next live event, or `undefined` when none is pending. */
  nextEventTimePs(): TimePs | undefined {
    while (this.laneCount !== 0) {
      const slot = this.laneHead;
      if (this.slotState[slot] === State.Due) return this.now;
      this.laneShift();
      this.laneCancelled--;
      this.freeSlot(slot);
    }
    if (this.queued === 0) return undefined;
    return this.slotTime[this.bucketHead[this.findDay()]!]!;
  }

  /**
   * Takes the next live event without dispatching it: advances the clock to its time and
   * sets {@link lastKind} and {@link lastTarget}. Returns false when no event is pending.
   * For custom loops and tests; {@link run} is the usual way to drive a simulation.
   */
  popNext(): boolean {
    // The take logic is written out here and in `loop` on purpose: a shared helper that
    // returns the slot costs a call on every event where V8 does not inline it.
    for (;;) {
      let slot: number;
      if (this.laneCount !== 0) {
        slot = this.laneShift();
        if (this.slotState[slot] === State.Cancelled) {
          this.laneCancelled--;
          this.freeSlot(slot);
          continue;
        }
      } else if (this.queued !== 0) {
        const day = this.findDay();
        const head = this.bucketHead[day]!;
        slot = this.takeEarliest(day, head, this.slotTime[head]!);
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

  // The event loop. Returns "empty" when nothing is left that is due by `untilPs`.
  private loop(untilPs: TimePs, stopWhen: (() => boolean) | undefined): RunOutcome {
    this.stopRequested = false;
    const handlers = this.handlers;
    for (;;) {
      let slot: number;
      if (this.laneCount !== 0) {
        slot = this.laneShift();
        if (this.slotState[slot] === State.Cancelled) {
          this.laneCancelled--;
          this.freeSlot(slot);
          continue;
        }
      } else if (this.queued !== 0) {
        const day = this.findDay();
        const head = this.bucketHead[day]!;
        const timePs = this.slotTime[head]!;
        if (timePs > untilPs) return "empty";
        slot = this.takeEarliest(day, head, timePs);
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

  // Kept small so that V8 can inline it into a caller's loop (its inlining budget is per
  // optimised function): one combined check, errors built elsewhere.
  private insert(atPs: TimePs, kind: EventKind, target: number): number {
    if (
      !(atPs >= this.now && atPs <= MAX_TIME_PS && Math.floor(atPs) === atPs) ||
      !(kind >= 0 && kind < this.handlers.length && (kind | 0) === kind) ||
      (target | 0) !== target
    ) {
      this.badEvent(atPs, kind, target);
    }
    const slot = this.allocSlot();
    this.slotKind[slot] = kind;
    this.slotTarget[slot] = target;
    if (atPs === this.now) this.laneAppend(slot);
    else this.enqueue(slot, atPs);
    return slot;
  }

  // Puts a slot into its day's bucket, behind the events of the same or an earlier time.
  // Most land in an empty bucket or at the tail (later than all in the bucket); the rest is
  // left to `enqueueBefore`, so that this stays small enough for V8 to inline into every
  // caller (its inlining budget is per optimised function, and this runs once per event).
  private enqueue(slot: number, timePs: TimePs): void {
    this.slotState[slot] = State.Queued;
    this.slotTime[slot] = timePs;
    const dayNumber = Math.floor(timePs * this.perWidth);
    const day = dayNumber & this.bucketMask;
    // Looking for the next event can run ahead of the clock (run until a time); an event
    // scheduled before the day reached then moves the current day back.
    if (dayNumber < this.dayNumber) {
      this.dayNumber = dayNumber;
      this.day = day;
    }
    const tail = this.bucketTail[day]!;
    if (this.bucketHead[day] === Chain.Nil) {
      this.bucketHead[day] = slot;
      this.bucketTail[day] = slot;
      this.slotNext[slot] = Chain.Nil;
    } else if (timePs >= this.slotTime[tail]!) {
      this.slotNext[tail] = slot;
      this.slotNext[slot] = Chain.Nil;
      this.bucketTail[day] = slot;
    } else {
      this.enqueueBefore(slot, timePs, day);
    }
    if (++this.queued > this.growAbove) this.rebuild(2 * (this.bucketMask + 1));
  }

  // Puts a slot into a bucket whose tail is later than `timePs`: at the head, or after the
  // last entry of the same or an earlier time.
  private enqueueBefore(slot: number, timePs: TimePs, day: number): void {
    const time = this.slotTime;
    const next = this.slotNext;
    const head = this.bucketHead[day]!;
    if (timePs < time[head]!) {
      next[slot] = head;
      this.bucketHead[day] = slot;
      return;
    }
    // The tail is later, so the walk ends before the chain does.
    let before = head;
    let after = next[head]!;
    let steps = 1;
    while (time[after]! <= timePs) {
      before = after;
      after = next[after]!;
      steps++;
    }
    next[slot] = after;
    next[before] = slot;
    this.costSteps += steps;
  }

  // The bucket whose head is the earliest calendar event (the calendar is not empty). Mostly
  // the current day's; else `scanDays` looks further.
  private findDay(): number {
    const day = this.day;
    const slot = this.bucketHead[day]!;
    if (slot !== Chain.Nil && Math.floor(this.slotTime[slot]! * this.perWidth) <= this.dayNumber) {
      return day;
    }
    return this.scanDays();
  }

  // The first day after the current one whose head belongs to that day's year, else (a year
  // without events: they are sparse for the width) the day of the earliest head of all.
  private scanDays(): number {
    const head = this.bucketHead;
    const time = this.slotTime;
    const mask = this.bucketMask;
    const perWidth = this.perWidth;
    let day = this.day;
    let dayNumber = this.dayNumber;
    for (let k = 1; k <= mask; k++) {
      day = (day + 1) & mask;
      dayNumber++;
      const slot = head[day]!;
      if (slot !== Chain.Nil && Math.floor(time[slot]! * perWidth) <= dayNumber) {
        this.day = day;
        this.dayNumber = dayNumber;
        this.costSteps += k;
        return day;
      }
    }
    this.costSteps += mask + 1;
    let best = Chain.Nil;
    let bestTime = Number.POSITIVE_INFINITY;
    for (let d = 0; d <= mask; d++) {
      const slot = head[d]!;
      if (slot !== Chain.Nil && time[slot]! < bestTime) {
        bestTime = time[slot]!;
        best = d;
      }
    }
    this.dayNumber = Math.floor(bestTime * perWidth);
    this.day = best;
    return best;
  }

  // Takes `slot`, the head of `day`'s bucket (the earliest event), due at `timePs`, and
  // advances the clock to it. Events of the same time behind it go to the fast lane
  // (`laneTies`). The caller has read the head and its time already: passing them saves two
  // array reads per event.
  private takeEarliest(day: number, slot: number, timePs: TimePs): number {
    const rest = this.slotNext[slot]!;
    this.now = timePs;
    if (rest !== Chain.Nil && this.slotTime[rest] === timePs) this.laneTies(rest, day, timePs);
    else this.bucketHead[day] = rest;
    if (--this.queued < this.shrinkBelow) this.rebuild((this.bucketMask + 1) >> 1);
    else if (--this.costCountdown === 0) this.checkCost();
    return slot;
  }

  // The clock has just advanced to `timePs`, and `first` heads the events of that time left
  // in `day`'s bucket: they are consecutive there, in scheduling order, and go to the fast
  // lane in one piece. The lane is empty (the clock only advances once it is drained).
  private laneTies(first: number, day: number, timePs: TimePs): void {
    const time = this.slotTime;
    const next = this.slotNext;
    const state = this.slotState;
    let last = first;
    let count = 1;
    state[first] = State.Due;
    let rest = next[first]!;
    while (rest !== Chain.Nil && time[rest]! === timePs) {
      last = rest;
      state[last] = State.Due;
      count++;
      rest = next[last]!;
    }
    next[last] = Chain.Nil;
    this.bucketHead[day] = rest;
    this.laneHead = first;
    this.laneTail = last;
    this.laneCount = count;
    this.queued -= count;
  }

  // Removes a calendar event from its bucket.
  private unlink(slot: number): void {
    const day = Math.floor(this.slotTime[slot]! * this.perWidth) & this.bucketMask;
    const next = this.slotNext;
    let before = Chain.Nil;
    let at = this.bucketHead[day]!;
    while (at !== slot) {
      before = at;
      at = next[at]!;
    }
    if (before === Chain.Nil) this.bucketHead[day] = next[slot]!;
    else next[before] = next[slot]!;
    if (this.bucketTail[day] === slot) this.bucketTail[day] = before;
  }

  // Called every `costInterval` dequeues: estimates the width again when the work per event
  // says the event density has changed. When a new width does not help (a distribution no
  // width suits), the checks back off, so that the estimates cost little.
  private checkCost(): void {
    const perEvent = this.costSteps / this.costInterval;
    const base = 4 * (this.bucketMask + 1);
    if (perEvent > COST_LIMIT) {
      this.rebuild(this.bucketMask + 1);
      this.costInterval = Math.min(this.costInterval * 2, 64 * base);
    } else {
      this.costInterval = base;
    }
    this.costSteps = 0;
    this.costCountdown = this.costInterval;
  }

  // Sets up `buckets` buckets (a power of two) with a width estimated from the pending events
  // and puts every calendar event back. Events of equal time share a bucket and are taken
  // out and put back in their order, so FIFO ties survive.
  private rebuild(buckets: number): void {
    const count = this.queued;
    const slots = new Int32Array(count);
    const head = this.bucketHead;
    const next = this.slotNext;
    let k = 0;
    for (let day = 0; day < head.length; day++) {
      for (let slot = head[day]!; slot !== Chain.Nil; slot = next[slot]!) slots[k++] = slot;
    }
    this.widthPs = this.estimateWidth(slots);
    this.perWidth = 1 / this.widthPs;
    if (buckets !== head.length) {
      this.bucketHead = new Int32Array(buckets);
      this.bucketTail = new Int32Array(buckets);
    }
    this.bucketHead.fill(Chain.Nil);
    this.bucketMask = buckets - 1;
    this.growAbove = 2 * buckets;
    this.shrinkBelow = buckets > MIN_BUCKETS ? buckets >> 1 : 0;
    this.dayNumber = Math.floor(this.now * this.perWidth);
    this.day = this.dayNumber & this.bucketMask;
    this.queued = 0;
    for (let i = 0; i < count; i++) this.enqueue(slots[i]!, this.slotTime[slots[i]!]!);
    this.costSteps = 0;
    this.costInterval = 4 * buckets;
    this.costCountdown = this.costInterval;
  }

  // Brown's estimate: three times the mean gap between the earliest events, leaving out gaps
  // over twice the mean. With many events, from a strided sample of them, whose gaps are the
  // true ones stretched by the sampling step. Keeps the current width when every sampled event
  // is at one time.
  private estimateWidth(slots: Int32Array): number {
    const count = slots.length;
    if (count < 2) return this.widthPs;
    const step = Math.ceil(count / WIDTH_SAMPLE_MAX);
    const sample = new Float64Array(Math.ceil(count / step));
    for (let i = 0, j = 0; i < count; i += step, j++) sample[j] = this.slotTime[slots[i]!]!;
    sample.sort();
    const n = Math.min(sample.length, WIDTH_SAMPLE_HEAD + 1);
    let gap = meanGapWithoutOutliers(sample, n);
    if (gap === 0) gap = (sample[sample.length - 1]! - sample[0]!) / (sample.length - 1);
    if (gap === 0) return this.widthPs;
    return Math.max(1, (3 * gap) / step);
  }

  private laneAppend(slot: number): void {
    this.slotState[slot] = State.Due;
    this.slotNext[slot] = Chain.Nil;
    if (this.laneCount++ === 0) this.laneHead = slot;
    else this.slotNext[this.laneTail] = slot;
    this.laneTail = slot;
  }

  private laneShift(): number {
    const slot = this.laneHead;
    this.laneHead = this.slotNext[slot]!;
    this.laneCount--;
    return slot;
  }

  private liveSlot(handle: EventHandle): number {
    if (!(handle >= 0) || !Number.isSafeInteger(handle)) return -1;
    const slot = handle % SLOT_LIMIT;
    const gen = (handle - slot) / SLOT_LIMIT;
    if (slot >= this.slotCount) return -1;
    if (gen === 0 || this.slotGen[slot] !== gen) return -1;
    const state = this.slotState[slot];
    return state === State.Queued || state === State.Due ? slot : -1;
  }

  private allocSlot(): number {
    if (this.freeTop !== 0) return this.freeSlots[--this.freeTop]!;
    if (this.slotCount === this.capacity) this.growSlots();
    return this.slotCount++;
  }

  // A free slot has generation 0, which no handle carries: handles of the events it held are
  // dead from here on.
  private freeSlot(slot: number): void {
    this.slotGen[slot] = 0;
    this.freeSlots[this.freeTop++] = slot;
  }

  private growSlots(): void {
    if (this.capacity >= SLOT_LIMIT) {
      throw new RangeError(`more than ${SLOT_LIMIT} events pending: the scheduler's limit`);
    }
    const capacity = Math.min(this.capacity * 2, SLOT_LIMIT);
    this.slotTime = resized(this.slotTime, capacity);
    this.slotNext = resized(this.slotNext, capacity);
    this.slotKind = resized(this.slotKind, capacity);
    this.slotTarget = resized(this.slotTarget, capacity);
    this.slotState = resized(this.slotState, capacity);
    this.slotGen = resized(this.slotGen, capacity);
    this.freeSlots = resized(this.freeSlots, capacity);
    this.capacity = capacity;
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

// Mean gap between consecutive values of sorted[0..n), leaving out gaps over twice the mean.
function meanGapWithoutOutliers(sorted: Float64Array, n: number): number {
  if (n < 2) return 0;
  const mean = (sorted[n - 1]! - sorted[0]!) / (n - 1);
  let sum = 0;
  let kept = 0;
  for (let i = 1; i < n; i++) {
    const gap = sorted[i]! - sorted[i - 1]!;
    if (gap <= 2 * mean) {
      sum += gap;
      kept++;
    }
  }
  return kept === 0 ? mean : sum / kept;
}

// The cost, in ms, of timing an empty call as a profiled handler is timed: the cheapest of 20
// batches, so that the first (before the loop is optimised) and preempted ones do not count.
function clockCostMs(): number {
  const noop = (_target: number, _kind: number): void => {};
  let best = Number.POSITIVE_INFINITY;
  for (let b = 0; b < 20; b++) {
    let total = 0;
    for (let i = 0; i < 2000; i++) {
      const start = performance.now();
      noop(i, b);
      total += performance.now() - start;
    }
    if (total / 2000 < best) best = total / 2000;
  }
  return best;
}
