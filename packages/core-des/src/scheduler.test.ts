import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { type EventHandle, Scheduler } from "./scheduler.js";
import { MAX_TIME_PS } from "./time.js";

/** Reference model: every event ever scheduled, popped by (time, insertion order). */
interface ModelEvent {
  timePs: number;
  kind: number;
  target: number;
  alive: boolean;
}

type Op =
  | { op: "schedule"; delayPs: number; kind: number; target: number; cancellable: boolean }
  | { op: "cancel"; pick: number }
  | { op: "pop" }
  | { op: "peek" };

const opsWith = (delayPs: fc.Arbitrary<number>, popWeight: number): fc.Arbitrary<Op> =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        op: fc.constant("schedule" as const),
        delayPs,
        kind: fc.nat({ max: 2 }),
        target: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        cancellable: fc.boolean(),
      }),
    },
    { weight: 2, arbitrary: fc.record({ op: fc.constant("cancel" as const), pick: fc.nat() }) },
    { weight: popWeight, arbitrary: fc.record({ op: fc.constant("pop" as const) }) },
    // Looking for the next event can take the calendar past the clock; later schedules must
    // still come out first when they are earlier.
    { weight: 1, arbitrary: fc.record({ op: fc.constant("peek" as const) }) },
  );

// Small delays make equal times common, and zero delays exercise the fast lane.
const opArb = opsWith(fc.oneof(fc.constant(0), fc.nat({ max: 20 }), fc.nat({ max: 5_000_000 })), 4);

// Delays over many orders of magnitude (1 ps to about 18 minutes), in runs of one scale, so
// that the event density changes under the calendar (new bucket widths) and far events share
// buckets with near ones; fewer pops than schedules first grow the calendar, more later
// shrink it.
const scaleArb = fc.integer({ min: 0, max: 45 }).map((bits) => 2 ** bits);
const phaseArb = fc
  .tuple(scaleArb, fc.integer({ min: 1, max: 6 }), fc.nat({ max: 300 }))
  .chain(([scale, popWeight, length]) =>
    fc.array(
      opsWith(
        fc.oneof(
          fc.constant(0),
          fc.nat({ max: scale }),
          fc.nat({ max: scale }).map((d) => d * 1000),
        ),
        popWeight,
      ),
      { minLength: length, maxLength: length },
    ),
  );

function newScheduler(initialCapacity: number): Scheduler {
  const s = new Scheduler({ initialCapacity });
  for (const name of ["a", "b", "c"]) s.defineKind(name, () => {});
  return s;
}

// Replays `ops` on a scheduler and on the reference model and checks that every pop, pending
// count, handle query and the final drain agree.
function checkAgainstModel(ops: readonly Op[], initialCapacity: number): void {
  const s = newScheduler(initialCapacity);
  const model: ModelEvent[] = [];
  const handles: { handle: EventHandle; index: number }[] = [];
  let now = 0;
  const popModel = (): ModelEvent | undefined => {
    let best: ModelEvent | undefined;
    for (const e of model) {
      // Strict < keeps the earliest scheduled among equal times: FIFO ties.
      if (e.alive && (best === undefined || e.timePs < best.timePs)) best = e;
    }
    if (best) best.alive = false;
    return best;
  };
  for (const o of ops) {
    if (o.op === "schedule") {
      const at = Math.min(now + o.delayPs, MAX_TIME_PS);
      model.push({ timePs: at, kind: o.kind, target: o.target, alive: true });
      if (o.cancellable) {
        handles.push({
          handle: s.scheduleCancellable(at, o.kind, o.target),
          index: model.length - 1,
        });
      } else {
        s.schedule(at, o.kind, o.target);
      }
    } else if (o.op === "cancel") {
      if (handles.length === 0) continue;
      const { handle, index } = handles[o.pick % handles.length]!;
      const wasAlive = model[index]!.alive;
      expect(s.isPending(handle)).toBe(wasAlive);
      expect(s.cancel(handle)).toBe(wasAlive);
      model[index]!.alive = false;
    } else if (o.op === "peek") {
      const next = model
        .filter((e) => e.alive)
        .reduce((t, e) => Math.min(t, e.timePs), Number.POSITIVE_INFINITY);
      expect(s.nextEventTimePs()).toBe(next === Number.POSITIVE_INFINITY ? undefined : next);
    } else {
      const expected = popModel();
      expect(s.popNext()).toBe(expected !== undefined);
      if (expected) {
        now = expected.timePs;
        expect([s.nowPs, s.lastKind, s.lastTarget]).toEqual([
          expected.timePs,
          expected.kind,
          expected.target,
        ]);
      }
    }
    expect(s.pending).toBe(model.filter((e) => e.alive).length);
  }
  // Drain: the rest comes out in model order, then nothing.
  for (let e = popModel(); e !== undefined; e = popModel()) {
    expect(s.popNext()).toBe(true);
    expect([s.nowPs, s.lastKind, s.lastTarget]).toEqual([e.timePs, e.kind, e.target]);
  }
  expect(s.popNext()).toBe(false);
  expect(s.pending).toBe(0);
}

describe("Scheduler against a reference model", () => {
  test.prop([fc.array(opArb, { maxLength: 400 }), fc.integer({ min: 1, max: 8 })], {
    numRuns: 300,
  })(
    "pops in (time, scheduling order) under random schedule/cancel/pop interleavings",
    (ops, initialCapacity) => checkAgainstModel(ops, initialCapacity),
  );

  test.prop([fc.array(phaseArb, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 8 })], {
    numRuns: 100,
  })(
    "keeps that order when the calendar grows, shrinks and re-estimates its width (delays from 1 ps to 2^55 ps, capped at the last time)",
    (phases, initialCapacity) => checkAgainstModel(phases.flat(), initialCapacity),
  );

  test.prop(
    [
      fc.array(fc.record({ delayPs: fc.nat({ max: 30 }), children: fc.nat({ max: 3 }) }), {
        minLength: 1,
        maxLength: 60,
      }),
    ],
    { numRuns: 200 },
  )(
    "run() dispatches handlers in non-decreasing time, FIFO among equal times, including events that handlers schedule",
    (plan) => {
      const s = new Scheduler({ initialCapacity: 2 });
      const log: { timePs: number; id: number }[] = [];
      let nextId = 0;
      const scheduledOrder: number[] = [];
      const ids = new Map<number, number>();
      let cursor = 0;
      const kind = s.defineKind("node", (target) => {
        log.push({ timePs: s.nowPs, id: target });
        // Each dispatched event schedules up to `children` more, some at the current time.
        const step = plan[cursor++ % plan.length]!;
        for (let c = 0; c < step.children && nextId < 300; c++) {
          const id = nextId++;
          ids.set(id, s.nowPs + ((step.delayPs + c) % 3 === 0 ? 0 : step.delayPs + c));
          scheduledOrder.push(id);
          s.schedule(ids.get(id)!, kind, id);
        }
      });
      for (const step of plan) {
        const id = nextId++;
        ids.set(id, step.delayPs);
        scheduledOrder.push(id);
        s.schedule(step.delayPs, kind, id);
      }
      expect(s.run()).toBe("empty");
      expect(log.length).toBe(nextId);
      expect(s.processed).toBe(nextId);
      // Expected order: by time, then by when the event was scheduled.
      const rank = new Map(scheduledOrder.map((id, i) => [id, i]));
      const expected = [...scheduledOrder].sort(
        (a, b) => ids.get(a)! - ids.get(b)! || rank.get(a)! - rank.get(b)!,
      );
      expect(log.map((e) => e.id)).toEqual(expected);
      for (const e of log) expect(e.timePs).toBe(ids.get(e.id));
    },
  );
});

describe("Scheduler run control", () => {
  it("runUntil processes events due by the limit and leaves the clock there", () => {
    const s = new Scheduler();
    const seen: number[] = [];
    const k = s.defineKind("k", (t) => seen.push(t));
    for (const t of [5, 10, 10, 15]) s.schedule(t, k, t);
    expect(s.runUntil(10)).toBe("time");
    expect(seen).toEqual([5, 10, 10]);
    expect(s.nowPs).toBe(10);
    expect(s.runUntil(12)).toBe("time");
    expect(s.nowPs).toBe(12);
    expect(s.nextEventTimePs()).toBe(15);
    expect(s.runUntilEmpty()).toBe("empty");
    expect(s.nowPs).toBe(15);
    expect(s.runUntil(100)).toBe("time");
    expect(s.nowPs).toBe(100);
  });

  it("stops when a handler calls stop() or stopWhen returns true, and resumes after", () => {
    const s = new Scheduler();
    const seen: number[] = [];
    const k = s.defineKind("k", (t) => {
      seen.push(t);
      if (t === 2) s.stop();
    });
    for (let t = 1; t <= 6; t++) s.schedule(t * 100, k, t);
    expect(s.run()).toBe("stopped");
    expect(seen).toEqual([1, 2]);
    expect(s.nowPs).toBe(200);
    expect(s.run({ stopWhen: () => seen.length === 4 })).toBe("stopped");
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(s.run({ untilPs: 10_000 })).toBe("time");
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("scheduleIn is relative to now and counts processed events", () => {
    const s = new Scheduler();
    const times: number[] = [];
    const k = s.defineKind("k", (t) => {
      times.push(s.nowPs);
      if (t < 3) s.scheduleIn(1000, k, t + 1);
    });
    s.schedule(7, k, 0);
    s.run();
    expect(times).toEqual([7, 1007, 2007, 3007]);
    expect(s.processed).toBe(4);
  });
});

describe("Scheduler cancellation", () => {
  it("a handle is inert once its event ran, and cancelling twice is a no-op", () => {
    const s = new Scheduler({ initialCapacity: 1 });
    const seen: number[] = [];
    const k = s.defineKind("k", (t) => seen.push(t));
    const first = s.scheduleCancellable(10, k, 1);
    s.run();
    // The slot is reused by the next event; the stale handle must not reach it.
    const second = s.scheduleCancellable(20, k, 2);
    expect(s.isPending(first)).toBe(false);
    expect(s.cancel(first)).toBe(false);
    expect(s.isPending(second)).toBe(true);
    expect(s.cancel(second)).toBe(true);
    expect(s.cancel(second)).toBe(false);
    s.run();
    expect(seen).toEqual([1]);
  });

  it("nextEventTimePs skips cancelled events, in the calendar and in the fast lane", () => {
    const s = new Scheduler();
    const k = s.defineKind("k", () => {});
    const now = s.scheduleCancellable(0, k, 0);
    const early = s.scheduleCancellable(5, k, 1);
    s.schedule(9, k, 2);
    s.cancel(now);
    s.cancel(early);
    expect(s.nextEventTimePs()).toBe(9);
    expect(s.pending).toBe(1);
  });

  it("re-armed timers do not grow the calendar (cancelled events leave their bucket)", () => {
    const s = new Scheduler({ initialCapacity: 16 });
    const k = s.defineKind("timer", () => {});
    let handle = s.scheduleCancellable(1_000_000, k, 0);
    for (let i = 0; i < 100_000; i++) {
      s.cancel(handle);
      handle = s.scheduleCancellable(1_000_000 + i, k, 0);
    }
    expect(s.pending).toBe(1);
    expect(s.popNext()).toBe(true);
    expect(s.nowPs).toBe(1_000_000 + 99_999);
    expect(s.popNext()).toBe(false);
  });

  it("ignores handles that were never issued", () => {
    const s = new Scheduler();
    s.defineKind("k", () => {});
    expect(s.cancel(12345 as EventHandle)).toBe(false);
    expect(s.cancel(-1 as EventHandle)).toBe(false);
    expect(s.isPending(0.5 as EventHandle)).toBe(false);
  });
});

describe("Scheduler input checks", () => {
  it("rejects times in the past, non-integer or unsafe times, unknown kinds and bad targets", () => {
    const s = new Scheduler();
    const k = s.defineKind("link delivery", () => {});
    s.schedule(100, k, 0);
    s.popNext();
    expect(() => s.schedule(99, k, 0)).toThrow(
      /link delivery at 99 ps: it is in the past \(now is 100 ps\)/,
    );
    expect(() => s.schedule(100.5, k, 0)).toThrow(/integer picoseconds/);
    expect(() => s.schedule(2 ** 53, k, 0)).toThrow(/integer picoseconds/);
    expect(() => s.schedule(Number.NaN, k, 0)).toThrow(RangeError);
    expect(() => s.scheduleIn(-1, k, 0)).toThrow(/delay must be ≥ 0/);
    expect(() => s.schedule(200, 7, 0)).toThrow(/unknown event kind 7/);
    expect(() => s.schedule(200, k, 2 ** 31)).toThrow(/32-bit integer/);
    expect(() => s.run({ untilPs: 50 })).toThrow(/untilPs must be an integer time ≥ now/);
    expect(() => new Scheduler({ initialCapacity: 0 })).toThrow(/initialCapacity/);
  });

  it("a handler's exception leaves the scheduler usable", () => {
    const s = new Scheduler();
    const seen: number[] = [];
    const k = s.defineKind("k", (t) => {
      if (t === 1) throw new Error("boom");
      seen.push(t);
    });
    s.schedule(1, k, 1);
    s.schedule(2, k, 2);
    expect(() => s.run()).toThrow("boom");
    expect(s.run()).toBe("empty");
    expect(seen).toEqual([2]);
  });
});

describe("Scheduler per-kind profile", () => {
  // Events of three kinds that schedule more events, as a trace of what ran: the same with
  // and without profiling, whenever it starts.
  const trace = (seeds: [number, number, number][], every: number, startAfter: number | null) => {
    const s = new Scheduler({ initialCapacity: 4 });
    const ran: string[] = [];
    const kinds: number[] = [];
    for (let k = 0; k < 3; k++) {
      kinds.push(
        s.defineKind(`kind ${k}`, (target) => {
          ran.push(`${s.nowPs}/${k}/${target}`);
          if (startAfter !== null && ran.length === startAfter) s.profileKinds(every);
          if (target > 0) s.scheduleIn((target * 37) % 50, kinds[(k + target) % 3]!, target - 1);
        }),
      );
    }
    if (startAfter === 0) s.profileKinds(every);
    for (const [t, k, target] of seeds) s.schedule(t, kinds[k]!, target);
    s.run();
    return { ran, profile: startAfter === null ? [] : s.kindProfile() };
  };

  test.prop([
    fc.array(fc.tuple(fc.nat(200), fc.nat(2), fc.nat(6)), { maxLength: 40 }),
    fc.integer({ min: 1, max: 5 }),
    fc.nat(30),
  ])(
    "profiling changes nothing that runs, and counts every event of each kind",
    (seeds, every, startAfter) => {
      const plain = trace(seeds, every, null);
      const profiled = trace(seeds, every, startAfter);
      expect(profiled.ran).toEqual(plain.ran);
      const counted = profiled.profile.reduce((n, p) => n + p.events, 0);
      expect(counted).toBe(Math.max(0, plain.ran.length - startAfter));
      for (const p of profiled.profile) {
        expect(p.timedEvents).toBe(Math.ceil(p.events / every));
      }
    },
  );

  it("estimates a kind's time from its timed events, kinds defined later included", () => {
    const s = new Scheduler();
    s.profileKinds(2);
    // Each call waits at least 1 ms: a lower bound the estimate cannot fall below (bar the
    // clock's own cost, which is taken off), whatever the machine's speed.
    const slow = s.defineKind("slow", () => {
      const start = performance.now();
      while (performance.now() - start < 1) {}
    });
    const fast = s.defineKind("fast", () => {});
    for (let i = 0; i < 8; i++) {
      s.schedule(i, slow, 0);
      s.schedule(i, fast, 0);
    }
    s.run();
    const [first, second] = s.kindProfile();
    expect(first).toMatchObject({ kind: "slow", events: 8, timedEvents: 4 });
    expect(first!.handlerMs).toBeGreaterThanOrEqual(7.9);
    expect(second).toMatchObject({ kind: "fast", events: 8, timedEvents: 4 });
  });

  it("rejects a bad sample rate and a second start", () => {
    const s = new Scheduler();
    expect(() => s.profileKinds(0)).toThrow(/sampleEvery must be an integer ≥ 1, got 0/);
    expect(() => s.profileKinds(1.5)).toThrow(RangeError);
    s.profileKinds();
    expect(() => s.profileKinds()).toThrow(/profiled already/);
  });
});
