import type { Topology } from "@cclab/fabric";
import { FabricBuilder, hostEnd, switchEnd } from "../fabric-builder.js";
import {
  choiceOption,
  GENERIC_LINK_DEFAULTS,
  intOption,
  type LinkOptions,
  latencyOption,
  optionBag,
  rateOption,
} from "../options.js";
import { assertTableSize } from "../routing/candidate-lists.js";
import { ROUTING_NAMES, type RoutingName, routingByName } from "../routing/routing-by-name.js";

export interface TwoLevelFatTreeOptions extends LinkOptions {
  /** Leaf switches (≥ 1). */
  readonly leaves: number;
  /** Spine switches (≥ 1). */
  readonly spines: number;
  /** Hosts on each leaf (≥ 1). */
  readonly hostsPerLeaf: number;
  /** Up cables per leaf, a multiple of `spines` (each leaf has that many cables to each spine); default `spines`. */
  readonly uplinksPerLeaf?: number;
  /** Default `"d-mod-k"`. */
  readonly routing?: RoutingName;
}

/**
 * The SRP paper's network (000 line 92): "a 256-node 2-level Fat Tree. 32-port routers are used
 * on the first level, each with 16 down channels and 16 up channels. The second level … uses
 * 16-port routers with down channels only", so 16 leaves and 16 spines; 10 Gb/s and 32 ns per
 * channel; "nearest-common-ancestor routing" with random up channels.
 */
export const SRP_FAT_TREE_256 = {
  leaves: 16,
  spines: 16,
  hostsPerLeaf: 16,
  rateGbps: 10,
  latencyNs: 32,
  routing: "nca-random",
} as const satisfies TwoLevelFatTreeOptions;

/**
 * The benchmark fabric of scenarios/bench/uniform256.yaml: 256 hosts, 16 leaves of 16 hosts,
 * 16 spines, every leaf linked once to every spine; 100 Gb/s and 1 µs; ECMP-like per-flow
 * hashing up, deterministic down.
 */
export const UNIFORM256_LEAF_SPINE = {
  leaves: 16,
  spines: 16,
  hostsPerLeaf: 16,
  rateGbps: 100,
  latencyNs: 1000,
  routing: "ecmp",
} as const satisfies TwoLevelFatTreeOptions;

const OPTIONS = [
  "leaves",
  "spines",
  "hostsPerLeaf",
  "uplinksPerLeaf",
  "rateGbps",
  "latencyNs",
  "routing",
] as const;

const MAX_SIDE = 4096;

/**
 * A leaf–spine (two-level fat tree, folded Clos) fabric. Leaf `leaf{i}` (level 0) has ports
 * `0 … h−1` for its hosts and `h … h+u−1` up (`h` hosts per leaf, `u` uplinks); spine
 * `spine{j}` (level 1) has `leaves · u / spines` ports, all down. Host `H{x}` sits on leaf
 * `floor(x / h)`, port `x mod h` (the numbering of the benchmark's flows,
 * scenarios/bench/uniform256-flows.csv). Up port `h + j` of leaf `i` goes to spine
 * `j mod spines`, on that spine's port `i · m + floor(j / spines)` (`m = u / spines` parallel
 * cables per leaf–spine pair), so every spine reaches every leaf and any up port is on a
 * shortest path.
 *
 * Default routing D-mod-k (leaf up port `h + (d mod u)`): each destination has one spine.
 * Presets: `SRP_FAT_TREE_256`, `UNIFORM256_LEAF_SPINE`; Paper IV's fabric is `foldedClos648`.
 */
export function twoLevelFatTree(opts: TwoLevelFatTreeOptions): Topology {
  return buildTwoLevel("twoLevelFatTree", opts, GENERIC_LINK_DEFAULTS, undefined);
}

/** Shared by `twoLevelFatTree` and `foldedClos648`; `name` overrides the fabric name. */
export function buildTwoLevel(
  fn: string,
  opts: unknown,
  defaults: { readonly rateGbps: number; readonly latencyNs: number },
  name: string | undefined,
): Topology {
  const bag = optionBag(fn, opts, OPTIONS);
  const leaves = intOption(fn, "leaves", bag.leaves, { min: 1, max: MAX_SIDE });
  const spines = intOption(fn, "spines", bag.spines, { min: 1, max: MAX_SIDE });
  const hostsPerLeaf = intOption(fn, "hostsPerLeaf", bag.hostsPerLeaf, { min: 1, max: MAX_SIDE });
  const uplinks = intOption(fn, "uplinksPerLeaf", bag.uplinksPerLeaf, {
    min: 1,
    max: MAX_SIDE,
    fallback: spines,
  });
  if (uplinks % spines !== 0) {
    throw new RangeError(
      `${fn}: option "uplinksPerLeaf" must be a multiple of spines (${spines}) so that every spine reaches every leaf, got ${uplinks}`,
    );
  }
  assertTableSize(fn, leaves + spines, leaves * hostsPerLeaf);
  const link = {
    rateGbps: rateOption(fn, "rateGbps", bag.rateGbps, defaults.rateGbps),
    latencyNs: latencyOption(fn, "latencyNs", bag.latencyNs, defaults.latencyNs),
  };
  const routing = choiceOption(fn, "routing", bag.routing, ROUTING_NAMES, "d-mod-k");
  const parallel = uplinks / spines;

  const b = new FabricBuilder();
  for (let i = 0; i < leaves; i++) b.addSwitch(`leaf${i}`, hostsPerLeaf + uplinks, 0);
  for (let j = 0; j < spines; j++) b.addSwitch(`spine${j}`, leaves * parallel, 1);
  for (let x = 0; x < leaves * hostsPerLeaf; x++) {
    b.connect(
      hostEnd(b.addHost(`H${x}`)),
      switchEnd(Math.floor(x / hostsPerLeaf), x % hostsPerLeaf),
      link,
    );
  }
  for (let i = 0; i < leaves; i++) {
    for (let j = 0; j < uplinks; j++) {
      const spine = leaves + (j % spines);
      b.connect(
        switchEnd(i, hostsPerLeaf + j),
        switchEnd(spine, i * parallel + Math.floor(j / spines)),
        link,
      );
    }
  }
  const fabric = b.build(
    name ?? `leaf-spine, ${leaves} leaves × ${hostsPerLeaf} hosts, ${spines} spines`,
  );
  return { fabric, routing: routingByName(routing, fabric) };
}
