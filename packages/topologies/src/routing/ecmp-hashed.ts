import type { FabricDescription, ForwardingTable, Routing } from "@cclab/fabric";
import { wiringOf } from "../wiring.js";
import { assertTableBudget } from "./candidate-lists.js";
import { shortestCandidates } from "./shortest-path.js";
import { deterministicDownPort, downPortsToward, treeStructureOf } from "./tree-structure.js";

/**
 * ECMP-like routing: the candidates are all ports on a shortest path and a hash of the flow id
 * picks one (selection `"flow-hash"`), so a flow keeps its path while flows spread over the
 * equal-cost up ports. On a tree (every switch has a level) a switch with the destination below
 * it keeps only the deterministic down port, as the benchmark fabric asks ("deterministic
 * down", scenarios/bench/uniform256.yaml); in a fat tree the shortest ports elsewhere are
 * exactly the up ports. Works on any fabric; without levels it is `shortestPath` with flow
 * hashing.
 */
export function ecmpHashed(fabric: FabricDescription): Routing {
  const wiring = wiringOf(fabric);
  assertTableBudget(fabric, "ecmpHashed");
  const isTree = fabric.switches.length > 0 && fabric.switches.every((s) => s.level !== undefined);
  let override: (s: number, d: number) => readonly number[] | false = () => false;
  if (isTree) {
    const tree = treeStructureOf(fabric, "ecmpHashed");
    const toward: number[] = [];
    override = (s, d) => {
      if (tree.below[s]![d] !== 1) return false;
      downPortsToward(tree, s, d, toward);
      return [deterministicDownPort(tree, d, toward, s)];
    };
  }
  const tables = shortestCandidates(wiring, override).map(
    (candidates): ForwardingTable => ({ candidates, selection: "flow-hash" }),
  );
  return { name: "ecmp", tables };
}
