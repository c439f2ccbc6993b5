import type { Topology } from "@cclab/fabric";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { seededChooser, traceAllPairs } from "../test/support.js";
import { foldedClos648 } from "./builders/folded-clos-648.js";
import { type GenericTopologySpec, genericTopology } from "./builders/generic-topology.js";
import { karyNTree } from "./builders/kary-n-tree.js";
import { parkingLot } from "./builders/parking-lot.js";
import { singleSwitch } from "./builders/single-switch.js";
import { srpCongestionNetwork } from "./builders/srp-congestion-network.js";
import {
  SRP_FAT_TREE_256,
  twoLevelFatTree,
  UNIFORM256_LEAF_SPINE,
} from "./builders/two-level-fat-tree.js";
import { twoSwitchTestbed } from "./builders/two-switch-testbed.js";
import { checkRouting, RoutingError } from "./routing/check-routing.js";
import { ecmpHashed } from "./routing/ecmp-hashed.js";
import { ROUTING_NAMES } from "./routing/routing-by-name.js";
import { traceRoute } from "./routing/trace-route.js";
import { wiringOf } from "./wiring.js";

/** The top-level switches that traffic to each destination climbs to. */
function rootsPerDestination({ fabric, routing }: Topology): Set<number>[] {
  const wiring = wiringOf(fabric);
  const top = Math.max(...fabric.switches.map((s) => s.level ?? 0));
  return fabric.hosts.map((_, d) => {
    const roots = new Set<number>();
    fabric.hosts.forEach((_, s) => {
      if (s === d) return;
      for (const hop of traceRoute(wiring, routing, s, d)) {
        if (fabric.switches[hop.switchIndex]!.level === top) roots.add(hop.switchIndex);
      }
    });
    return roots;
  });
}

describe("every builder's default routing passes checkRouting", () => {
  it.each<[string, () => Topology, number]>([
    ["srpCongestionNetwork", () => srpCongestionNetwork(), 2],
    ["twoSwitchTestbed", () => twoSwitchTestbed(), 2],
    ["singleSwitch", () => singleSwitch({ hosts: 7 }), 1],
    ["parkingLot", () => parkingLot({ switches: 4, hostsPerSwitch: 3 }), 4],
    ["karyNTree", () => karyNTree({ k: 4, n: 3 }), 5],
    ["twoLevelFatTree (SRP)", () => twoLevelFatTree(SRP_FAT_TREE_256), 3],
    ["twoLevelFatTree (bench)", () => twoLevelFatTree(UNIFORM256_LEAF_SPINE), 3],
    ["foldedClos648", () => foldedClos648(), 3],
    [
      "genericTopology",
      () =>
        genericTopology({
          nodes: [
            { kind: "switch", name: "s" },
            { kind: "host", name: "a" },
            { kind: "host", name: "b" },
          ],
          links: [
            { a: "a", b: "s" },
            { a: "b", b: "s" },
          ],
        }),
      1,
    ],
  ])("%s", (_name, build, maxHops) => {
    const t = build();
    expect(checkRouting(t.fabric, t.routing).maxHops).toBe(maxHops);
  });
});

describe("routing properties over random fabrics", () => {
  const kn = fc
    .record({ k: fc.integer({ min: 2, max: 4 }), n: fc.integer({ min: 1, max: 3 }) })
    .filter(({ k, n }) => k ** n <= 64);

  test.prop([kn, fc.constantFrom(...ROUTING_NAMES), fc.integer()], { numRuns: 40 })(
    "k-ary n-trees: every routing is complete and loop-free, every pair routable with any choice",
    ({ k, n }, routing, seed) => {
      const t = karyNTree({ k, n, routing });
      expect(checkRouting(t.fabric, t.routing).maxHops).toBe(2 * n - 1);
      if (k ** n > 1) expect(traceAllPairs(t, seededChooser(seed))).toBeLessThanOrEqual(2 * n - 1);
    },
  );

  test.prop([kn], { numRuns: 15 })(
    "k-ary n-trees under D-mod-k: one root per destination",
    ({ k, n }) => {
      for (const roots of rootsPerDestination(karyNTree({ k, n })).filter((r) => r.size > 0)) {
        expect(roots.size).toBe(1);
      }
    },
  );

  const leafSpine = fc.record({
    leaves: fc.integer({ min: 1, max: 6 }),
    spines: fc.integer({ min: 1, max: 4 }),
    hostsPerLeaf: fc.integer({ min: 1, max: 5 }),
    parallel: fc.integer({ min: 1, max: 2 }),
  });

  test.prop([leafSpine, fc.constantFrom(...ROUTING_NAMES), fc.integer()], { numRuns: 40 })(
    "leaf-spine fabrics: every routing is complete and loop-free",
    ({ leaves, spines, hostsPerLeaf, parallel }, routing, seed) => {
      const t = twoLevelFatTree({
        leaves,
        spines,
        hostsPerLeaf,
        uplinksPerLeaf: spines * parallel,
        routing,
      });
      const { maxHops } = checkRouting(t.fabric, t.routing);
      expect(maxHops).toBe(leaves === 1 ? 2 : 3); // a lone leaf's spines still reach it
      if (t.fabric.hosts.length > 1) traceAllPairs(t, seededChooser(seed));
      if (routing === "d-mod-k" && leaves > 1) {
        for (const roots of rootsPerDestination(t)) expect(roots.size).toBe(1);
      }
    },
  );

  test.prop(
    [
      fc
        .array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 6 })
        .filter((h) => h.some((x) => x > 0)),
    ],
    { numRuns: 30 },
  )("parking lots and single switches route every pair", (hostsPerSwitch) => {
    const lot = parkingLot({ switches: hostsPerSwitch.length, hostsPerSwitch });
    checkRouting(lot.fabric, lot.routing);
    checkRouting(lot.fabric, ecmpHashed(lot.fabric));
    const one = singleSwitch({ hosts: hostsPerSwitch.reduce((a, b) => a + b) });
    checkRouting(one.fabric, one.routing);
  });

  /** A random connected graph: a random spanning tree, extra links (parallel ones too), hosts anywhere. */
  const graph = fc
    .record({ switches: fc.integer({ min: 1, max: 7 }), hosts: fc.integer({ min: 1, max: 8 }) })
    .chain(({ switches, hosts }) =>
      fc.record({
        switches: fc.constant(switches),
        parents: fc.array(fc.nat(), { minLength: switches - 1, maxLength: switches - 1 }),
        extra: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 8 }),
        hostSwitch: fc.array(fc.nat(), { minLength: hosts, maxLength: hosts }),
        selection: fc.constantFrom("first" as const, "flow-hash" as const, "random" as const),
      }),
    )
    .map(({ switches, parents, extra, hostSwitch, selection }): GenericTopologySpec => {
      const links = [
        ...parents.map((p, i) => ({ a: `s${i + 1}`, b: `s${p % (i + 1)}` })),
        ...extra
          .filter(([a, b]) => a % switches !== b % switches)
          .map(([a, b]) => ({ a: `s${a % switches}`, b: `s${b % switches}` })),
        ...hostSwitch.map((s, h) => ({ a: `h${h}`, b: `s${s % switches}` })),
      ];
      const used = new Set(links.flatMap((l) => [l.a, l.b]));
      return {
        selection,
        nodes: [
          ...Array.from({ length: switches }, (_, i) => ({
            kind: "switch" as const,
            name: `s${i}`,
          })),
          ...hostSwitch.map((_, h) => ({ kind: "host" as const, name: `h${h}` })),
        ].filter((node) => used.has(node.name)),
        links,
      };
    });

  test.prop([graph, fc.integer()], { numRuns: 60 })(
    "random connected graphs: shortest-path and ECMP routing are complete, loop-free and minimal",
    (spec, seed) => {
      const t = genericTopology(spec);
      checkRouting(t.fabric, t.routing);
      checkRouting(t.fabric, ecmpHashed(t.fabric));
      // Every candidate is on a shortest path, so any choice gives the same route length.
      const wiring = wiringOf(t.fabric);
      const random = seededChooser(seed);
      t.fabric.hosts.forEach((_, s) => {
        t.fabric.hosts.forEach((_, d) => {
          if (s === d) return;
          const first = traceRoute(wiring, t.routing, s, d).length;
          expect(traceRoute(wiring, t.routing, s, d, random).length).toBe(first);
        });
      });
    },
  );

  test.prop([graph], { numRuns: 30 })(
    "a host behind a separate switch makes the graph unroutable",
    (spec) => {
      const island: GenericTopologySpec = {
        ...spec,
        nodes: [...spec.nodes, { kind: "switch", name: "far" }, { kind: "host", name: "lost" }],
        links: [...spec.links, { a: "lost", b: "far" }],
      };
      expect(() => genericTopology(island)).toThrow(RoutingError);
    },
  );
});
