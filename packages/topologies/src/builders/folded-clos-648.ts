import type { Topology } from "@cclab/fabric";
import { choiceOption, type LinkOptions, optionBag } from "../options.js";
import { ROUTING_NAMES, type RoutingName } from "../routing/routing-by-name.js";
import { buildTwoLevel } from "./two-level-fat-tree.js";
import { GRAN_LINK_DEFAULTS } from "./two-switch-testbed.js";

export interface FoldedClos648Options extends LinkOptions {
  /** Default `"d-mod-k"`. */
  readonly routing?: RoutingName;
}

const OPTIONS = ["rateGbps", "latencyNs", "routing"] as const;

/**
 * Paper IV's fabric (001 lines 1704 and 844): the Sun Datacenter InfiniBand Switch 648, "a
 * three stage fat-tree network … of up to 648 compute nodes … built from 54 36-port
 * crossbars", i.e. a folded Clos: 36 leaves with 18 hosts and 18 up ports each, and 18
 * spines with one cable to every leaf (36 leaves × 18 + 18 = 54 switches of 36 ports). It is
 * `twoLevelFatTree({ leaves: 36, spines: 18, hostsPerLeaf: 18 })` with Paper IV's link: 20
 * Gbit/s 4x DDR signalling (line 1704), 16 Gb/s of data; 5 ns latency (not in the paper, see
 * `GRAN_LINK_DEFAULTS`).
 *
 * The paper's simulator routes with "linear forwarding tables" (line 1692) and names no
 * algorithm; the default here is D-mod-k, the deterministic fat-tree routing of InfiniBand
 * subnet managers (FTREE-like).
 */
export function foldedClos648(opts?: FoldedClos648Options): Topology {
  const fn = "foldedClos648";
  const bag = optionBag(fn, opts, OPTIONS);
  const routing = choiceOption(fn, "routing", bag.routing, ROUTING_NAMES, "d-mod-k");
  return buildTwoLevel(
    fn,
    {
      leaves: 36,
      spines: 18,
      hostsPerLeaf: 18,
      rateGbps: bag.rateGbps,
      latencyNs: bag.latencyNs,
      routing,
    },
    GRAN_LINK_DEFAULTS,
    "folded Clos 648 (Sun DS 648, Gran Paper IV)",
  );
}
