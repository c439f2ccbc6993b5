import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { Rotation } from "./rotation.js";

interface Member {
  headCreatedPs: number;
  headId: number;
}

type Op =
  | { op: "push"; createdPs: number; id: number }
  | { op: "shift" }
  | { op: "removeAt"; index: number }
  | { op: "headChanged"; index: number; createdPs: number; id: number };

// Few distinct times (so ties happen and ids must break them), some past 2^31 ps.
const timePs = fc.constantFrom(0, 5, 7, 2 ** 31 + 3, 2 ** 40);
const ops = fc.array(
  fc.oneof(
    fc.record({ op: fc.constant("push" as const), createdPs: timePs, id: fc.nat(50) }),
    fc.record({ op: fc.constant("shift" as const) }),
    fc.record({ op: fc.constant("removeAt" as const), index: fc.nat(30) }),
    fc.record({
      op: fc.constant("headChanged" as const),
      index: fc.nat(30),
      createdPs: timePs,
      id: fc.nat(50),
    }),
  ),
  { maxLength: 300 },
);

// The order the send decision used before the rotation kept keys: read from the members.
function headBefore(a: Member, b: Member): boolean {
  return (
    a.headCreatedPs < b.headCreatedPs ||
    (a.headCreatedPs === b.headCreatedPs && a.headId < b.headId)
  );
}

test.prop([ops], { numRuns: 200 })(
  "Rotation behaves like an array queue, finds its members and orders by their current heads",
  (sequence: Op[]) => {
    const rotation = new Rotation<Member>(2);
    const model: Member[] = [];
    for (const step of sequence) {
      if (step.op === "push") {
        const member = { headCreatedPs: step.createdPs, headId: step.id };
        rotation.push(member);
        model.push(member);
      } else if (step.op === "shift") {
        expect(rotation.shift()).toBe(model.shift());
      } else if (step.op === "removeAt") {
        const expected = step.index < model.length ? model.splice(step.index, 1)[0] : undefined;
        expect(rotation.removeAt(step.index)).toBe(expected);
      } else if (step.index < model.length) {
        const member = model[step.index]!;
        member.headCreatedPs = step.createdPs;
        member.headId = step.id;
        rotation.headChangedAt(step.index);
      }
      expect(rotation.length).toBe(model.length);
      for (let k = 0; k < model.length; k++) expect(rotation.indexOf(model[k]!)).toBe(k);
      expect(rotation.indexOf({ headCreatedPs: 0, headId: 0 })).toBe(-1);
      let oldest = model.length === 0 ? -1 : 0;
      for (let k = 1; k < model.length; k++) if (headBefore(model[k]!, model[oldest]!)) oldest = k;
      expect(rotation.oldest()).toBe(oldest);
      for (let k = 0; k + 1 < model.length; k++) {
        expect(rotation.before(k, k + 1)).toBe(headBefore(model[k]!, model[k + 1]!));
        expect(rotation.before(k + 1, k)).toBe(headBefore(model[k + 1]!, model[k]!));
      }
    }
    expect(Array.from({ length: rotation.length }, (_, i) => rotation.at(i))).toEqual(model);
  },
);
