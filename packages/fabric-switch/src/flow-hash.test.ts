import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { flowHashModulo } from "./flow-hash.js";

// The hash as first written, on the unsigned 32-bit value (a double above 2^31).
function reference(flowId: number, switchIndex: number, count: number): number {
  return (Math.imul(flowId ^ Math.imul(switchIndex + 1, 0x9e3779b1), 0x85ebca6b) >>> 0) % count;
}

test.prop(
  [
    fc.oneof(fc.nat(), fc.integer({ min: 0, max: 2 ** 40 })),
    fc.nat({ max: 100_000 }),
    fc.integer({ min: 1, max: 1024 }),
  ],
  { numRuns: 2000 },
)("equals the unsigned hash's remainder", (flowId, switchIndex, count) => {
  expect(flowHashModulo(flowId, switchIndex, count)).toBe(reference(flowId, switchIndex, count));
});

test("covers every port of a large group", () => {
  const seen = new Set<number>();
  for (let flow = 0; flow < 4096; flow++) seen.add(flowHashModulo(flow, 3, 48));
  expect(seen.size).toBe(48);
});
