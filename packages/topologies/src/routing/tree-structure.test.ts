import { describe, expect, it } from "vitest";
import { genericTopology } from "../builders/generic-topology.js";
import { karyNTree } from "../builders/kary-n-tree.js";
import { parkingLot } from "../builders/parking-lot.js";
import { dModKDigit, treeStructureOf } from "./tree-structure.js";

describe("treeStructureOf", () => {
  it("splits ports into up and down and knows what lies below each switch", () => {
    const { fabric } = karyNTree({ k: 2, n: 3 });
    const tree = treeStructureOf(fabric, "test");
    expect(tree.upPorts[0]).toEqual([2, 3]);
    expect(tree.downPorts[0]).toEqual([0, 1]);
    // Top switches (level 2, indices 8..11) have no up cables.
    expect(tree.upPorts[8]).toEqual([]);
    expect(Array.from(tree.below[0]!)).toEqual([1, 1, 0, 0, 0, 0, 0, 0]);
    expect(Array.from(tree.below[8]!)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(tree.reach.every((r) => r.every((x) => x === 1))).toBe(true);
    expect(tree.upRadix).toEqual([2, 2, 0]);
    expect(tree.digitWeight).toEqual([1, 2, 4]);
    expect([0, 1, 2].map((l) => dModKDigit(tree, l, 6))).toEqual([0, 1, 0]);
  });

  it("needs a level on every switch and cables between levels", () => {
    expect(() =>
      treeStructureOf(parkingLot({ switches: 2, hostsPerSwitch: 1 }).fabric, "dModK"),
    ).toThrow(/dModK: switch "S0" \(index 0\) has no level/);
    const flat = genericTopology({
      nodes: [
        { kind: "switch", name: "a", level: 0 },
        { kind: "switch", name: "b", level: 0 },
        { kind: "host", name: "x" },
        { kind: "host", name: "y" },
      ],
      links: [
        { a: "x", b: "a" },
        { a: "y", b: "b" },
        { a: "a", b: "b" },
      ],
    }).fabric;
    expect(() => treeStructureOf(flat, "ncaRandomUp")).toThrow(
      /port 1 of switch "a" is cabled to switch "b" on the same level 0/,
    );
  });
});
