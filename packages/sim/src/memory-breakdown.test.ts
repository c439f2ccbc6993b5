import { expect, it } from "vitest";
import { typedArrayBytes } from "./memory-breakdown.js";

it("counts each part's typed arrays once, and not those of another part's roots", () => {
  const shared = new Float64Array(8); // 64 B
  const switchA = { ports: new Int32Array(16), queues: [new Int32Array(4)], shared }; // 64 + 16
  const hostA = { table: new Map([[1, new Uint8Array(10)]]), sw: switchA, shared }; // 10
  const packets = { sizeBytes: new Int32Array(100), view: null as Int32Array | null }; // 400
  packets.view = new Int32Array(packets.sizeBytes.buffer, 0, 10); // same buffer: not again
  const parts = typedArrayBytes([
    ["packets", [packets]],
    ["switches", [switchA]],
    ["hosts", [hostA]],
  ]);
  expect(parts).toEqual([
    { name: "packets", bytes: 400 },
    { name: "switches", bytes: 64 + 16 + 64 },
    { name: "hosts", bytes: 10 },
  ]);
});

it("walks cycles and sets without counting twice", () => {
  const a: { next?: unknown; data: Int16Array } = { data: new Int16Array(6) };
  const b = { next: a, set: new Set([a, new Uint32Array(3)]) };
  a.next = b;
  expect(typedArrayBytes([["all", [a, b]]])).toEqual([{ name: "all", bytes: 12 + 12 }]);
});
