import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { mergeSources } from "./merge.js";
import type { TrafficMessage, TrafficSource } from "./types.js";

/** A source over a list, counting how often it is asked. */
function listSource(messages: readonly TrafficMessage[]): TrafficSource & { pulls: number } {
  let i = 0;
  return {
    pulls: 0,
    next() {
      this.pulls++;
      return messages[i++];
    },
  };
}

function drain(source: TrafficSource): TrafficMessage[] {
  const out: TrafficMessage[] = [];
  for (let m = source.next(); m !== undefined; m = source.next()) out.push(m);
  return out;
}

// Source s, position i: srcHost = s, bytes = i + 1, so every message says where it came from.
const sourcesArb = fc
  .array(fc.array(fc.nat({ max: 20 }), { maxLength: 30 }), { maxLength: 8 })
  .map((lists) =>
    lists.map((times, s) =>
      [...times]
        .sort((a, b) => a - b)
        .map((startPs, i): TrafficMessage => ({ srcHost: s, dstHost: 99, bytes: i + 1, startPs })),
    ),
  );

describe("mergeSources", () => {
  test.prop([sourcesArb], { numRuns: 300 })(
    "is the stable sort of the concatenated inputs: sorted, a permutation, ties by source then order",
    (lists) => {
      // Array.prototype.sort is stable, so this is the order the contract promises.
      const expected = lists.flat().sort((a, b) => a.startPs - b.startPs);
      expect(drain(mergeSources(lists.map(listSource)))).toEqual(expected);
    },
  );

  test.prop([sourcesArb], { numRuns: 100 })(
    "asks each source for at most one message ahead of its output",
    (lists) => {
      const sources = lists.map(listSource);
      const merged = mergeSources(sources);
      const taken = lists.map(() => 0);
      for (let m = merged.next(); m !== undefined; m = merged.next()) {
        taken[m.srcHost]!++;
        sources.forEach((s, i) => {
          expect(s.pulls).toBeLessThanOrEqual(taken[i]! + 1);
        });
      }
    },
  );

  it("pulls nothing until asked", () => {
    const s = listSource([{ srcHost: 0, dstHost: 1, bytes: 1, startPs: 0 }]);
    const merged = mergeSources([s, listSource([])]);
    expect(s.pulls).toBe(0);
    expect(merged.next()?.startPs).toBe(0);
    expect(merged.next()).toBeUndefined();
    expect(merged.next()).toBeUndefined();
  });

  it("merges nothing into an empty source", () => {
    expect(mergeSources([]).next()).toBeUndefined();
  });

  it.each([1, 2])("rejects a source that goes back in time (%i sources)", (count) => {
    const bad = listSource([
      { srcHost: 0, dstHost: 1, bytes: 1, startPs: 10 },
      { srcHost: 0, dstHost: 1, bytes: 1, startPs: 5 },
    ]);
    const merged = mergeSources([bad, ...Array.from({ length: count - 1 }, () => listSource([]))]);
    expect(() => drain(merged)).toThrow(
      /source 0 went back in time: a message at 5 ps after one at 10 ps/,
    );
  });
});
