import type { FabricDescription, ForwardingTable, PortSelection } from "@cclab/fabric";
import { assertTableBudget, CandidateLists } from "./candidate-lists.js";
import {
  deterministicDownPort,
  downPortsToward,
  type TreeStructure,
  treeStructureOf,
  usableUpPorts,
} from "./tree-structure.js";

/**
 * Builds up/down tables for a tree: a switch with the destination below it sends it down the
 * deterministic down path; any other switch sends it up, to the candidates `pickUp` chooses
 * from the usable up ports (those whose far end can still reach the destination). Up moves
 * raise the level and down moves lower it, never up again, so no route can loop.
 */
export function treeTables(
  fabric: FabricDescription,
  fn: string,
  selection: PortSelection,
  pickUp: (
    tree: TreeStructure,
    s: number,
    d: number,
    usable: readonly number[],
  ) => readonly number[],
): ForwardingTable[] {
  // Budget first: the tree analysis itself holds two switches × hosts bitmaps.
  assertTableBudget(fabric, fn);
  const tree = treeStructureOf(fabric, fn);
  const hostCount = fabric.hosts.length;
  const scratch: number[] = [];
  return fabric.switches.map((sw, s): ForwardingTable => {
    const lists = new CandidateLists(sw.portCount);
    const below = tree.below[s]!;
    const reach = tree.reach[s]!;
    const candidates = new Array<readonly number[]>(hostCount);
    for (let d = 0; d < hostCount; d++) {
      if (below[d] === 1) {
        downPortsToward(tree, s, d, scratch);
        candidates[d] = lists.single(deterministicDownPort(tree, d, scratch, s));
      } else if (reach[d] === 1) {
        usableUpPorts(tree, s, d, scratch);
        candidates[d] = lists.of(pickUp(tree, s, d, scratch));
      } else {
        candidates[d] = lists.of([]);
      }
    }
    return { candidates, selection };
  });
}
