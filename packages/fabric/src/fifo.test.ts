import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { Fifo, IntFifo } from "./fifo.js";

type Op = { op: "push"; value: number } | { op: "shift" } | { op: "removeAt"; index: number };

const ops = fc.array(
  fc.oneof(
    fc.record({
      op: fc.constant("push" as const),
      value: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    }),
    fc.record({ op: fc.constant("shift" as const) }),
    fc.record({ op: fc.constant("removeAt" as const), index: fc.nat(40) }),
  ),
  { maxLength: 300 },
);

test.prop([ops], { numRuns: 200 })("Fifo behaves like an array queue", (sequence: Op[]) => {
  const fifo = new Fifo<number>(2);
  const model: number[] = [];
  for (const step of sequence) {
    if (step.op === "push") {
      fifo.push(step.value);
      model.push(step.value);
    } else if (step.op === "shift") {
      expect(fifo.shift()).toBe(model.shift());
    } else {
      const expected = step.index < model.length ? model.splice(step.index, 1)[0] : undefined;
      expect(fifo.removeAt(step.index)).toBe(expected);
    }
    expect(fifo.length).toBe(model.length);
    expect(fifo.peek()).toBe(model[0]);
  }
  expect([...fifo]).toEqual(model);
});

test.prop([ops], { numRuns: 200 })("IntFifo behaves like an array queue", (sequence: Op[]) => {
  const fifo = new IntFifo(2);
  const model: number[] = [];
  for (const step of sequence) {
    if (step.op === "push") {
      fifo.push(step.value);
      model.push(step.value);
    } else if (step.op === "shift") {
      expect(fifo.shift()).toBe(model.shift() ?? -1);
    } else {
      const expected = step.index < model.length ? model.splice(step.index, 1)[0]! : -1;
      expect(fifo.removeAt(step.index)).toBe(expected);
    }
    expect(fifo.length).toBe(model.length);
    expect(fifo.peek()).toBe(model[0] ?? -1);
  }
  expect(Array.from({ length: fifo.length }, (_, i) => fifo.at(i))).toEqual(model);
});
