import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { flowHashModulo } from "./flow-hash.js";

// MurmurHash3's fmix32 of the mixed id, and the remainder of the unsigned 32-bit value (a
// double above 2^31).
function reference(flowId: number, switchIndex: number, count: number): number {
  let h = flowId ^ Math.imul(switchIndex + 1, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % count;
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

// Flow ids are (src · hosts + dst) · vlCount + sl: with vlCount 2, 4 or 8 and SL 0 they share
// that factor. Each of 16 up-ports must still get its share of 256 × 256 flows (the hash this
// replaced gave 16 / vlCount ports all of them, and the others none).
test.each([1, 2, 4, 8])("spreads flow ids that are multiples of %i over every port", (vlCount) => {
  for (const switchIndex of [0, 5, 17]) {
    const perPort = new Array<number>(16).fill(0);
    for (let src = 0; src < 256; src++) {
      for (let dst = 0; dst < 256; dst++) {
        perPort[flowHashModulo((src * 256 + dst) * vlCount, switchIndex, 16)]!++;
      }
    }
    // 4096 expected per port; a fair hash stays within ±5 % (binomial σ ≈ 62, so ±3.3 σ).
    for (const n of perPort) expect(Math.abs(n - 4096)).toBeLessThan(205);
  }
});
