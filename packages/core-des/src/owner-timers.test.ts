import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { MAX_OWNER_TIMERS, OwnerTimers, type TimerOwner } from "./owner-timers.js";
import { Scheduler } from "./scheduler.js";

/** An owner that records (time, owner, timer) of each expiry. */
function recorder(name: string, log: string[], scheduler: Scheduler): TimerOwner {
  return { expire: (timer) => log.push(`${scheduler.nowPs} ${name}#${timer}`) };
}

describe("OwnerTimers", () => {
  it("fires each owner's numbered timer at its time", () => {
    const scheduler = new Scheduler();
    const log: string[] = [];
    const a = new OwnerTimers(scheduler, "test: timer", recorder("a", log, scheduler));
    const b = new OwnerTimers(scheduler, "test: timer", recorder("b", log, scheduler));
    a.armAt(1, 30);
    b.armAt(0, 10);
    a.armAt(3, 20);
    expect(a.armed(1)).toBe(true);
    expect(a.armed(0)).toBe(false);
    scheduler.runUntilEmpty();
    expect(log).toEqual(["10 b#0", "20 a#3", "30 a#1"]);
    expect(a.armed(1)).toBe(false);
  });

  it("re-arming moves a timer, disarming stops it", () => {
    const scheduler = new Scheduler();
    const log: string[] = [];
    const t = new OwnerTimers(scheduler, "test: timer", recorder("t", log, scheduler));
    t.armAt(0, 50);
    t.armAt(0, 70);
    t.armAt(1, 60);
    t.disarm(1);
    t.disarm(2);
    scheduler.runUntilEmpty();
    expect(log).toEqual(["70 t#0"]);
  });

  it("shares one event kind per scheduler and name", () => {
    const scheduler = new Scheduler();
    const kindsBefore = scheduler.defineKind("probe", () => {});
    new OwnerTimers(scheduler, "x", { expire: () => {} });
    new OwnerTimers(scheduler, "x", { expire: () => {} });
    new OwnerTimers(scheduler, "y", { expire: () => {} });
    // Two kinds were defined after the probe: the next one is probe + 3.
    expect(scheduler.defineKind("probe2", () => {})).toBe(kindsBefore + 3);
    // Another scheduler starts its own registry.
    const other = new Scheduler();
    const log: string[] = [];
    new OwnerTimers(other, "x", recorder("o", log, other)).armAt(2, 5);
    other.runUntilEmpty();
    expect(log).toEqual(["5 o#2"]);
  });

  it("rejects a timer number outside 0…MAX_OWNER_TIMERS − 1", () => {
    const t = new OwnerTimers(new Scheduler(), "test: timer", { expire: () => {} });
    expect(() => t.armAt(MAX_OWNER_TIMERS, 10)).toThrow(/timer must be an integer in 0…3, got 4/);
    expect(() => t.armAt(-1, 10)).toThrow(RangeError);
    expect(() => t.armAt(0.5, 10)).toThrow(RangeError);
  });

  test.prop(
    [
      fc.array(
        fc.record({
          owner: fc.nat({ max: 4 }),
          timer: fc.nat({ max: MAX_OWNER_TIMERS - 1 }),
          atPs: fc.nat({ max: 1000 }),
          disarm: fc.boolean(),
        }),
        { maxLength: 60 },
      ),
    ],
    { numRuns: 200 },
  )("each (owner, timer) fires once, at the last time it was armed to, unless disarmed", (ops) => {
    const scheduler = new Scheduler();
    const fired: string[] = [];
    const timers = Array.from(
      { length: 5 },
      (_, i) =>
        new OwnerTimers(scheduler, "prop", {
          expire: (timer) => fired.push(`${i}.${timer}@${scheduler.nowPs}`),
        }),
    );
    const expected = new Map<string, number>();
    for (const op of ops) {
      const key = `${op.owner}.${op.timer}`;
      if (op.disarm) {
        timers[op.owner]!.disarm(op.timer);
        expected.delete(key);
      } else {
        timers[op.owner]!.armAt(op.timer, op.atPs);
        expected.set(key, op.atPs);
      }
    }
    scheduler.runUntilEmpty();
    expect([...fired].sort()).toEqual([...expected].map(([k, at]) => `${k}@${at}`).sort());
  });
});
