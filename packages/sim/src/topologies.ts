import type { Topology } from "@cclab/fabric";
import {
  ECOCC_LINK_DEFAULTS,
  foldedClos648,
  GENERIC_LINK_DEFAULTS,
  type GenericTopologySpec,
  GRAN_LINK_DEFAULTS,
  genericTopology,
  karyNTree,
  parkingLot,
  ROUTING_NAMES,
  SRP_LINK_DEFAULTS,
  singleSwitch,
  srpCongestionNetwork,
  twoLevelFatTree,
  twoSwitchTestbed,
} from "@cclab/topologies";
import { z } from "zod";
import { count, gbps, oneOf, strictObject, time } from "./scenario/fields.js";

/** A topology a scenario can name: its parameters (zod, with defaults) and its builder. */
export interface TopologyKind<S extends z.ZodType = z.ZodType> {
  readonly description: string;
  readonly params: S;
  build(params: z.output<S>): Topology;
}

function kind<S extends z.ZodType>(k: TopologyKind<S>): TopologyKind<S> {
  return k;
}

const link = (defaults: { readonly rateGbps: number; readonly latencyNs: number }) => ({
  rateGbps: gbps("rate of every link (each direction)").default(defaults.rateGbps),
  latencyNs: time("propagation latency of every link", "ns").default(defaults.latencyNs),
});

const routing = (fallback: (typeof ROUTING_NAMES)[number]) =>
  oneOf(ROUTING_NAMES as ["d-mod-k", ...string[]], "routing function").default(fallback);

/** Every topology a scenario may name in `topology.kind`. */
export const TOPOLOGY_KINDS: Readonly<Record<string, TopologyKind>> = {
  "srp-fig1": kind({
    description:
      "SRP paper (seed 000) Fig. 1: S0..S5, D0, D1 on two switches; S1..S5 → D1 saturate L2, S0 → D0 shares L0",
    params: strictObject(link(SRP_LINK_DEFAULTS)),
    build: (p) => srpCongestionNetwork(p),
  }),
  "gran-testbed": kind({
    description:
      "Gran thesis (seed 001) two-switch testbed: H1–H3 on S1, H4–H7 on S2, inter-switch link at twice the host rate",
    params: strictObject({
      ...link(GRAN_LINK_DEFAULTS),
      interSwitchRateGbps: gbps("rate of the S1–S2 link; default twice rateGbps").optional(),
      interSwitchLatencyNs: time("latency of the S1–S2 link; default latencyNs", "ns").optional(),
    }),
    build: (p) => twoSwitchTestbed(stripUndefined(p)),
  }),
  "single-switch": kind({
    description: "one switch with `hosts` hosts (H0, H1, …)",
    params: strictObject({
      hosts: count("hosts on the switch", 2, 4096),
      ...link(GENERIC_LINK_DEFAULTS),
    }),
    build: (p) => singleSwitch(p),
  }),
  "parking-lot": kind({
    description: "switches in a chain with hosts on each (hosts numbered switch by switch)",
    params: strictObject({
      switches: count("switches in the chain", 1, 1024),
      hostsPerSwitch: z
        .union([
          count("hosts per switch", 0, 1024),
          z.array(count("hosts on this switch", 0, 1024)),
        ])
        .describe("hosts on every switch, or a list with one count per switch"),
      ...link(GENERIC_LINK_DEFAULTS),
      interSwitchRateGbps: gbps("rate of the links between switches; default rateGbps").optional(),
      interSwitchLatencyNs: time(
        "latency of the links between switches; default latencyNs",
        "ns",
      ).optional(),
    }),
    build: (p) => parkingLot(stripUndefined(p)),
  }),
  "kary-n-tree": kind({
    description: "k-ary n-tree (k^n hosts, n levels of k^(n−1) switches with 2k ports)",
    params: strictObject({
      k: count("arity (half the switch ports)", 2, 64),
      n: count("levels", 1, 8),
      ...link(ECOCC_LINK_DEFAULTS),
      routing: routing("d-mod-k"),
    }),
    build: (p) => karyNTree(p as Parameters<typeof karyNTree>[0]),
  }),
  "two-level-fat-tree": kind({
    description: "leaf–spine fat tree (folded Clos); host x on leaf floor(x / hostsPerLeaf)",
    params: strictObject({
      leaves: count("leaf switches", 1, 4096),
      spines: count("spine switches", 1, 4096),
      hostsPerLeaf: count("hosts per leaf", 1, 4096),
      uplinksPerLeaf: count("uplinks per leaf; default one per spine", 1, 4096).optional(),
      ...link(GENERIC_LINK_DEFAULTS),
      routing: routing("d-mod-k"),
    }),
    build: (p) => twoLevelFatTree(stripUndefined(p) as Parameters<typeof twoLevelFatTree>[0]),
  }),
  "folded-clos-648": kind({
    description:
      "Gran thesis Paper IV fabric: 648 hosts, 36 leaves × 18 hosts, 18 spines of 36 ports (L1692–1704)",
    params: strictObject({ ...link(GRAN_LINK_DEFAULTS), routing: routing("d-mod-k") }),
    build: (p) => foldedClos648(p as Parameters<typeof foldedClos648>[0]),
  }),
  generic: kind({
    description:
      "any fabric given as nodes and links (see @cclab/topologies genericTopology), inline in the scenario",
    params: strictObject({
      spec: z
        .record(z.string(), z.unknown())
        .describe("a GenericTopologySpec: nodes, links, routing"),
    }),
    build: (p) => genericTopology(p.spec as unknown as GenericTopologySpec),
  }),
};

// Builders treat a missing option as "use the default"; zod leaves optional keys undefined,
// which exactOptionalPropertyTypes distinguishes from missing.
function stripUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
