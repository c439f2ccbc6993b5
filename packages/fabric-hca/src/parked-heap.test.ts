import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { ParkedHeap } from "./parked-heap.js";

type Op = { op: "push"; untilPs: number } | { op: "pop" };

// Few distinct times (so ties happen and the parking order must break them), some past 2^31 ps.
const ops = fc.array(
  fc.oneof(
    fc.record({
      op: fc.constant("push" as const),
      untilPs: fc.constantFrom(0, 3, 9, 2 ** 31 + 1, 2 ** 42),
    }),
    fc.record({ op: fc.constant("pop" as const) }),
  ),
  { maxLength: 300 },
);

test.prop([ops], { numRuns: 200 })(
  "ParkedHeap gives items back by time, then in the order they were parked",
  (sequence: Op[]) => {
    const heap = new ParkedHeap<number>(1);
    // The model: a list kept sorted by (time, order parked).
    const model: { untilPs: number; item: number }[] = [];
    let next = 0;
    for (const step of sequence) {
      if (step.op === "push") {
        const item = next++;
        heap.push(item, step.untilPs);
        let k = model.length;
        while (k > 0 && model[k - 1]!.untilPs > step.untilPs) k--;
        model.splice(k, 0, { untilPs: step.untilPs, item });
      } else if (model.length !== 0) {
        expect(heap.popTop()).toBe(model.shift()!.item);
      }
      expect(heap.length).toBe(model.length);
      expect(heap.topPs()).toBe(model[0]?.untilPs ?? Number.POSITIVE_INFINITY);
    }
  },
);
