import type { FabricDescription } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { karyNTree } from "../builders/kary-n-tree.js";
import { assertTableBudget, CandidateLists, MAX_TABLE_ENTRIES } from "./candidate-lists.js";

describe("CandidateLists", () => {
  it("shares single-port lists and equal consecutive lists", () => {
    const lists = new CandidateLists(4);
    const scratch = [1, 2, 3];
    const a = lists.of(scratch);
    scratch.length = 0;
    scratch.push(1, 2, 3);
    expect(lists.of(scratch)).toBe(a);
    expect(a).not.toBe(scratch); // a copy, so the caller may reuse its scratch array
    expect(lists.of([2])).toBe(lists.single(2));
    expect(lists.of([])).toEqual([]);
  });

  it("keeps a large tree's tables to a handful of arrays per switch", () => {
    const { routing } = karyNTree({ k: 4, n: 4, routing: "nca-random" });
    for (const table of routing.tables)
      expect(new Set(table.candidates).size).toBeLessThanOrEqual(8 + 1);
  });
});

describe("assertTableBudget", () => {
  it("refuses tables above MAX_TABLE_ENTRIES entries, naming the sizes", () => {
    const big = (switches: number, hosts: number) =>
      ({
        name: "big",
        switches: { length: switches },
        hosts: { length: hosts },
        cables: [],
      }) as unknown as FabricDescription;
    expect(() => assertTableBudget(big(2 ** 12, 2 ** 13), "dModK")).not.toThrow();
    expect(2 ** 12 * 2 ** 13).toBe(MAX_TABLE_ENTRIES);
    expect(() => assertTableBudget(big(2 ** 12 + 1, 2 ** 13), "dModK")).toThrow(
      /dModK: forwarding tables would hold 4097 switches × 8192 hosts = 33562624 candidate lists, above the limit of 33554432/,
    );
  });
});
