import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { RecordRing } from "./record-ring.js";

// Against an array of records: pushes and shifts in any interleaving, across growth.
test.prop([fc.array(fc.oneof(fc.double({ noNaN: true }), fc.constant(null)), { maxLength: 300 })])(
  "RecordRing behaves as a FIFO of records",
  (ops) => {
    const ring = new RecordRing(3, 2);
    const model: number[][] = [];
    for (const op of ops) {
      if (op === null) {
        if (model.length === 0) continue;
        const want = model.shift()!;
        const at = ring.headIndex();
        expect([ring.data[at], ring.data[at + 1], ring.data[at + 2]]).toEqual(want);
        ring.shift();
      } else {
        const record = [op, op + 1, -op];
        const at = ring.pushIndex();
        ring.data.set(record, at);
        model.push(record.map((x) => new Float64Array([x])[0]!));
      }
      expect(ring.length).toBe(model.length);
    }
  },
);
