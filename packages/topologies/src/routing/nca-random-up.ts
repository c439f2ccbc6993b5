import type { FabricDescription, Routing } from "@cclab/fabric";
import { treeTables } from "./tree-tables.js";

/**
 * Nearest-common-ancestor routing of the SRP paper (000 line 92): "A packet is first routed up
 * the tree using randomly assigned up channels. When the packet reaches the router that is the
 * lowest common ancestor of the source and the destination, it is routed down the tree
 * deterministically". Candidates are every up port that still reaches the destination, picked
 * at random per packet (selection `"random"`); down, a single port, the same one D-mod-k takes.
 *
 * Throws a `TypeError` if a switch has no level or a cable joins two switches of one level.
 */
export function ncaRandomUp(fabric: FabricDescription): Routing {
  const tables = treeTables(fabric, "ncaRandomUp", "random", (_tree, _s, _d, usable) => usable);
  return { name: "nca-random", tables };
}
