import { describe, expect, it } from "vitest";
import { checkRouting } from "../routing/check-routing.js";
import { wiringOf } from "../wiring.js";
import { SRP_FAT_TREE_256, twoLevelFatTree, UNIFORM256_LEAF_SPINE } from "./two-level-fat-tree.js";

describe("twoLevelFatTree", () => {
  it("builds the SRP paper's 256-node tree: 32-port leaves 16 down / 16 up, 16-port spines (000 line 92)", () => {
    const { fabric, routing } = twoLevelFatTree(SRP_FAT_TREE_256);
    expect(fabric.hosts).toHaveLength(256);
    const leaves = fabric.switches.filter((s) => s.level === 0);
    const spines = fabric.switches.filter((s) => s.level === 1);
    expect(leaves).toHaveLength(16);
    expect(spines).toHaveLength(16);
    expect(leaves.every((s) => s.portCount === 32)).toBe(true);
    expect(spines.every((s) => s.portCount === 16)).toBe(true);
    expect(fabric.cables.every((c) => c.rateGbps === 10 && c.latencyNs === 32)).toBe(true);
    expect(routing.name).toBe("nca-random");
    expect(checkRouting(fabric, routing).maxHops).toBe(3);
  });

  it("builds the benchmark leaf-spine: host h on leaf floor(h/16), each leaf once to each spine", () => {
    const { fabric, routing } = twoLevelFatTree(UNIFORM256_LEAF_SPINE);
    const w = wiringOf(fabric);
    const leafOf = fabric.hosts.map((_, h) => w.hostPeers[h]!.index);
    expect(leafOf).toEqual(fabric.hosts.map((_, h) => Math.floor(h / 16)));
    for (let leaf = 0; leaf < 16; leaf++) {
      const spines = w.switchPorts[leaf]!.slice(16).map((p) => p!.index - 16);
      expect(spines).toEqual(Array.from({ length: 16 }, (_, j) => j));
    }
    expect(fabric.cables[0]).toMatchObject({ rateGbps: 100, latencyNs: 1000 });
    expect(routing.name).toBe("ecmp");
    checkRouting(fabric, routing);
  });

  it("defaults to D-mod-k and one cable per leaf–spine pair; parallel cables on request", () => {
    const t = twoLevelFatTree({ leaves: 4, spines: 2, hostsPerLeaf: 3 });
    expect(t.routing.name).toBe("d-mod-k");
    expect(t.fabric.switches.map((s) => s.portCount)).toEqual([5, 5, 5, 5, 4, 4]);
    const fat = twoLevelFatTree({ leaves: 4, spines: 2, hostsPerLeaf: 3, uplinksPerLeaf: 6 });
    expect(fat.fabric.switches.map((s) => s.portCount)).toEqual([9, 9, 9, 9, 12, 12]);
    checkRouting(fat.fabric, fat.routing);
  });

  it("checks its options", () => {
    const ok = { leaves: 4, spines: 4, hostsPerLeaf: 4 };
    expect(() => twoLevelFatTree({ ...ok, uplinksPerLeaf: 6 })).toThrow(
      /option "uplinksPerLeaf" must be a multiple of spines \(4\).*got 6/,
    );
    expect(() => twoLevelFatTree({ ...ok, leaves: 0 })).toThrow(/twoLevelFatTree: option "leaves"/);
    expect(() => twoLevelFatTree({ ...ok, spine: 2 } as object as typeof ok)).toThrow(
      /unknown option "spine"/,
    );
    expect(() => twoLevelFatTree({ ...ok, latencyNs: -1 })).toThrow(RangeError);
    expect(() => twoLevelFatTree({ leaves: 4096, spines: 4096, hostsPerLeaf: 4096 })).toThrow(
      /forwarding tables would hold 8192 switches × 16777216 hosts/,
    );
  });
});
