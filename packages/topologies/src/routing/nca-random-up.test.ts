import { describe, expect, it } from "vitest";
import { seededChooser, traceAllPairs } from "../../test/support.js";
import { karyNTree } from "../builders/kary-n-tree.js";
import { SRP_FAT_TREE_256, twoLevelFatTree } from "../builders/two-level-fat-tree.js";
import { checkRouting } from "./check-routing.js";
import { dModK } from "./d-mod-k.js";
import { ncaRandomUp } from "./nca-random-up.js";

describe("ncaRandomUp", () => {
  it("offers every up port below the nearest common ancestor and one port down (000 line 92)", () => {
    const { fabric } = twoLevelFatTree(SRP_FAT_TREE_256);
    const r = ncaRandomUp(fabric);
    expect(r.name).toBe("nca-random");
    expect(r.tables[0]!.selection).toBe("random");
    const up = Array.from({ length: 16 }, (_, j) => 16 + j);
    expect(r.tables[0]!.candidates[255]).toEqual(up); // leaf 0 to a host on leaf 15
    expect(r.tables[0]!.candidates[3]).toEqual([3]); // a host on leaf 0 itself
    expect(r.tables[16]!.candidates[255]).toEqual([15]); // spine 0 down to leaf 15
    expect(checkRouting(fabric, r).maxHops).toBe(3);
  });

  it("goes down the same way as D-mod-k and delivers whatever up port is drawn", () => {
    const tree = karyNTree({ k: 3, n: 3 });
    const nca = ncaRandomUp(tree.fabric);
    const dmk = dModK(tree.fabric);
    tree.fabric.switches.forEach((_, s) => {
      nca.tables[s]!.candidates.forEach((c, d) => {
        if (c.length === 1) expect(c).toEqual(dmk.tables[s]!.candidates[d]);
      });
    });
    expect(traceAllPairs({ fabric: tree.fabric, routing: nca }, seededChooser(7))).toBe(5);
  });
});
