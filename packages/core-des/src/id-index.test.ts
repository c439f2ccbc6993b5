import { fc, test } from "@fast-check/vitest";
import { expect, it } from "vitest";
import { IdIndex } from "./id-index.js";

test.prop([
  fc.array(fc.oneof(fc.nat(4096), fc.nat(2 ** 31), fc.maxSafeNat()), { maxLength: 3000 }),
  fc.array(fc.maxSafeNat(), { maxLength: 200 }),
])("gives back every index stored, and −1 for ids never stored", (ids, probes) => {
  const index = new IdIndex();
  const reference = new Map<number, number>();
  for (const id of ids) {
    if (reference.has(id)) continue;
    index.set(id, reference.size);
    reference.set(id, reference.size);
  }
  for (const [id, i] of reference) expect(index.get(id)).toBe(i);
  for (const id of probes) expect(index.get(id)).toBe(reference.get(id) ?? -1);
});

it("holds dense flow ids of a large fabric", () => {
  // (src × hosts + dst) × VLs + SL at 4,096 hosts and 8 VLs: ids up to 2^27.
  const index = new IdIndex();
  const hosts = 4096;
  let n = 0;
  for (let src = 0; src < hosts; src += 7) {
    for (let dst = 0; dst < hosts; dst += 61) index.set((src * hosts + dst) * 8 + 3, n++);
  }
  n = 0;
  for (let src = 0; src < hosts; src += 7) {
    for (let dst = 0; dst < hosts; dst += 61)
      expect(index.get((src * hosts + dst) * 8 + 3)).toBe(n++);
  }
  expect(index.get(8 * hosts + 3)).toBe(-1);
});

it("keeps a small range of ids in a flat array, with the same answers", () => {
  for (const index of [new IdIndex(1000), new IdIndex(1000, 10)]) {
    for (let id = 0; id < 1000; id += 3) index.set(id, id * 2);
    for (let id = 0; id < 1000; id++) expect(index.get(id)).toBe(id % 3 === 0 ? id * 2 : -1);
  }
});
