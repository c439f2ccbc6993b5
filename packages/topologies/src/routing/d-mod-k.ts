import type { FabricDescription, Routing } from "@cclab/fabric";
import { dModKDigit } from "./tree-structure.js";
import { treeTables } from "./tree-tables.js";

/**
 * Deterministic D-mod-k routing for trees whose switches carry levels (k-ary n-trees, two-level
 * fat trees, folded Clos). Going up from a switch on level `l`, destination `d` always takes
 * up port `floor(d / Π_{j<l} w_j) mod w_l` (`w_j`: up ports per switch on level `j`); in a
 * k-ary n-tree that is digit `l` of `d` in base k. So all traffic to one destination climbs to
 * the same root and each down link of a k-ary n-tree carries a single destination (thesis 001
 * line 1125, "FTREE-like"). One candidate per destination; selection `"first"`.
 *
 * Throws a `TypeError` if a switch has no level or a cable joins two switches of one level.
 */
export function dModK(fabric: FabricDescription): Routing {
  const tables = treeTables(fabric, "dModK", "first", (tree, s, d, usable) => {
    const digit = dModKDigit(tree, tree.level[s]!, d);
    return [usable[digit % usable.length]!];
  });
  return { name: "d-mod-k", tables };
}
