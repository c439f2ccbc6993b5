import type { FabricDescription, Routing } from "@cclab/fabric";
import { dModK } from "./d-mod-k.js";
import { ecmpHashed } from "./ecmp-hashed.js";
import { ncaRandomUp } from "./nca-random-up.js";
import { shortestPath } from "./shortest-path.js";

/** The routing functions by the name they give their `Routing` (for options and spec files). */
export type RoutingName = "d-mod-k" | "nca-random" | "ecmp" | "shortest-path";

export const ROUTING_NAMES: readonly RoutingName[] = [
  "d-mod-k",
  "nca-random",
  "ecmp",
  "shortest-path",
];

/**
 * Runs the routing function called `name` on `fabric`. The first three need switch levels (a
 * tree); `"shortest-path"` works on any fabric.
 */
export function routingByName(name: RoutingName, fabric: FabricDescription): Routing {
  switch (name) {
    case "d-mod-k":
      return dModK(fabric);
    case "nca-random":
      return ncaRandomUp(fabric);
    case "ecmp":
      return ecmpHashed(fabric);
    case "shortest-path":
      return shortestPath(fabric);
    default:
      throw new TypeError(
        `routingByName: unknown routing ${JSON.stringify(name)} (allowed: ${ROUTING_NAMES.join(", ")})`,
      );
  }
}
