import { describe, expect, it } from "vitest";
import { genericTopology } from "../builders/generic-topology.js";
import { parkingLot } from "../builders/parking-lot.js";
import { twoLevelFatTree, UNIFORM256_LEAF_SPINE } from "../builders/two-level-fat-tree.js";
import { checkRouting } from "./check-routing.js";
import { ecmpHashed } from "./ecmp-hashed.js";
import { shortestPath } from "./shortest-path.js";

describe("ecmpHashed", () => {
  it("hashes over all up ports of a leaf and goes down deterministically", () => {
    const { fabric } = twoLevelFatTree({ ...UNIFORM256_LEAF_SPINE, uplinksPerLeaf: 32 });
    const r = ecmpHashed(fabric);
    expect(r.name).toBe("ecmp");
    expect(r.tables[0]!.selection).toBe("flow-hash");
    expect(r.tables[0]!.candidates[200]).toHaveLength(32);
    // Two parallel cables from each spine to leaf 12: only one is a candidate.
    expect(r.tables[16]!.candidates[200]).toHaveLength(1);
    expect(checkRouting(fabric, r).maxHops).toBe(3);
  });

  it("is shortest-path routing with flow hashing on a fabric without levels", () => {
    const ring = genericTopology({
      nodes: [
        { kind: "switch", name: "a" },
        { kind: "switch", name: "b" },
        { kind: "switch", name: "c" },
        { kind: "switch", name: "d" },
        { kind: "host", name: "x" },
        { kind: "host", name: "y" },
      ],
      links: [
        { a: "x", b: "a" },
        { a: "y", b: "c" },
        { a: "a", b: "b" },
        { a: "b", b: "c" },
        { a: "c", b: "d" },
        { a: "d", b: "a" },
      ],
    }).fabric;
    const ecmp = ecmpHashed(ring);
    const sp = shortestPath(ring);
    expect(ecmp.tables.map((t) => t.candidates)).toEqual(sp.tables.map((t) => t.candidates));
    expect(ecmp.tables[0]!.candidates[1]).toEqual([1, 2]);
    const lot = parkingLot({ switches: 3, hostsPerSwitch: 2 }).fabric;
    expect(checkRouting(lot, ecmpHashed(lot)).maxHops).toBe(3);
  });
});
