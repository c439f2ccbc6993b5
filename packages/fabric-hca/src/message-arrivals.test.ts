import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { MessageArrivals } from "./message-arrivals.js";

// Batches of start times added, then taken up to a time: every message is taken once, in
// (start, id) order, never before its start.
test.prop(
  [
    fc.array(
      fc.record({ startsPs: fc.array(fc.nat(50), { maxLength: 40 }), takeUntilPs: fc.nat(60) }),
      { maxLength: 20 },
    ),
  ],
  { numRuns: 200 },
)("MessageArrivals hands messages over in time order, each once", (rounds) => {
  const arrivals = new MessageArrivals();
  const expected: { startPs: number; id: number }[] = [];
  const taken: { startPs: number; id: number }[] = [];
  let id = 0;
  let nowPs = 0;
  for (const { startsPs, takeUntilPs } of rounds) {
    for (const startPs of startsPs) {
      // Messages start no earlier than now, as a host requires.
      const at = nowPs + startPs;
      arrivals.add({ dstHost: 0, bytes: 1, startPs: at }, id);
      expected.push({ startPs: at, id: id++ });
    }
    const pendingFirst = Math.min(
      ...expected.filter((m) => !taken.includes(m)).map((m) => m.startPs),
    );
    expect(arrivals.nextPs()).toBe(pendingFirst);
    nowPs += takeUntilPs;
    for (let m = arrivals.nextDue(nowPs); m !== undefined; m = arrivals.nextDue(nowPs)) {
      expect(m.message.startPs).toBeLessThanOrEqual(nowPs);
      taken.push(expected[m.id]!);
    }
    arrivals.compact();
  }
  for (let m = arrivals.nextDue(Number.POSITIVE_INFINITY); m !== undefined; ) {
    taken.push(expected[m.id]!);
    m = arrivals.nextDue(Number.POSITIVE_INFINITY);
  }
  expect(arrivals.nextPs()).toBe(Number.POSITIVE_INFINITY);
  const sorted = [...expected].sort((a, b) => a.startPs - b.startPs || a.id - b.id);
  expect(taken).toEqual(sorted);
});
