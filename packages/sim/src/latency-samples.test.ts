import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { FlowLatencySamples, sortedSummary } from "./latency-samples.js";

test.prop([
  fc.integer({ min: 1, max: 40 }),
  fc.integer({ min: 1, max: 6 }).chain((flows) =>
    fc.tuple(
      fc.constant(flows),
      fc.array(fc.tuple(fc.integer({ min: 0, max: flows - 1 }), fc.integer({ min: 0, max: 1e9 })), {
        maxLength: 300,
      }),
    ),
  ),
])(
  "groups samples by flow, sorted, and summarises them by nearest rank",
  (chunkLength, [flows, samples]) => {
    const store = new FlowLatencySamples(1 << 20, chunkLength);
    for (const [f, v] of samples) store.add(f, v);
    expect(store.length).toBe(samples.length);
    const visited: [number, number][] = [];
    store.forEach((f, v) => {
      visited.push([f, v]);
    });
    expect(visited).toEqual(samples);
    const sorted = store.sortedByFlow(flows);
    for (let f = 0; f < flows; f++) {
      const expected = samples
        .filter(([g]) => g === f)
        .map(([, v]) => v)
        .sort((a, b) => a - b);
      expect([...sorted[f]!]).toEqual(expected);
      if (expected.length > 0) {
        const s = sortedSummary(sorted[f]!, 1);
        expect(s.max).toBe(expected[expected.length - 1]);
        expect(s.p50).toBe(expected[Math.ceil(0.5 * expected.length) - 1]);
        expect(s.count).toBe(expected.length);
      }
    }
  },
);
