import { describe, expect, it } from "vitest";
import { seededChooser, traceAllPairs } from "../../test/support.js";
import { karyNTree } from "../builders/kary-n-tree.js";
import { parkingLot } from "../builders/parking-lot.js";
import { twoLevelFatTree } from "../builders/two-level-fat-tree.js";
import { wiringOf } from "../wiring.js";
import { checkRouting } from "./check-routing.js";
import { dModK } from "./d-mod-k.js";
import { traceRoute } from "./trace-route.js";

describe("dModK", () => {
  const tree = karyNTree({ k: 4, n: 3 });
  const { fabric } = tree;
  const routing = dModK(fabric);
  const wiring = wiringOf(fabric);
  const hosts = fabric.hosts.length;

  it("gives one candidate per destination, selection first, and passes checkRouting", () => {
    expect(routing.name).toBe("d-mod-k");
    for (const table of routing.tables) {
      expect(table.selection).toBe("first");
      expect(table.candidates.every((c) => c.length === 1)).toBe(true);
    }
    expect(checkRouting(fabric, routing).maxHops).toBe(5); // leaf → 2 up → 2 down → host
    expect(traceAllPairs(tree)).toBe(5);
  });

  it("goes up on port k + digit_l(d) on level l", () => {
    // Leaf 0 holds hosts 0..3; host 37 = 2·16 + 1·4 + 1 in base 4 has digits (1, 1, 2).
    expect(routing.tables[0]!.candidates[37]).toEqual([4 + 1]);
    const route = traceRoute(wiring, routing, 0, 37);
    expect(route.map((h) => fabric.switches[h.switchIndex]!.level)).toEqual([0, 1, 2, 1, 0]);
    expect(route[1]!.outPort).toBe(4 + 1);
  });

  it("sends all traffic to one destination through one root (FTREE-like)", () => {
    for (let d = 0; d < hosts; d++) {
      const roots = new Set<number>();
      for (let s = 0; s < hosts; s++) {
        if (s === d) continue;
        for (const hop of traceRoute(wiring, routing, s, d)) {
          if (fabric.switches[hop.switchIndex]!.level === 2) roots.add(hop.switchIndex);
        }
      }
      expect(roots.size).toBe(1);
    }
  });

  it("carries a single destination on each switch-to-switch down link (001 line 1125)", () => {
    const destinations = new Map<string, Set<number>>();
    for (let s = 0; s < hosts; s++) {
      for (let d = 0; d < hosts; d++) {
        if (s === d) continue;
        for (const hop of traceRoute(wiring, routing, s, d)) {
          const sw = fabric.switches[hop.switchIndex]!;
          if (sw.level! > 0 && hop.outPort < 4) {
            const key = `${hop.switchIndex}:${hop.outPort}`;
            destinations.set(key, (destinations.get(key) ?? new Set()).add(d));
          }
        }
      }
    }
    // 16 level-1 and 16 level-2 switches, 4 down links to switches each, all used.
    expect(destinations.size).toBe(32 * 4);
    for (const set of destinations.values()) expect(set.size).toBe(1);
  });

  it("spreads destinations over parallel leaf–spine cables", () => {
    const ft = twoLevelFatTree({ leaves: 3, spines: 2, hostsPerLeaf: 4, uplinksPerLeaf: 4 });
    const r = dModK(ft.fabric);
    const w = wiringOf(ft.fabric);
    checkRouting(ft.fabric, r);
    // Every up cable of leaf 0 and every down cable of the spines is used by some route.
    const used = new Set<number>();
    for (let s = 0; s < 12; s++) {
      for (let d = 0; d < 12; d++) {
        if (s === d) continue;
        for (const hop of traceRoute(w, r, s, d))
          used.add(w.switchPorts[hop.switchIndex]![hop.outPort]!.cable);
      }
    }
    const interSwitch = ft.fabric.cables.filter(
      (c) => c.a.kind === "switch" && c.b.kind === "switch",
    ).length;
    expect(interSwitch).toBe(12);
    expect(used.size).toBe(12 + interSwitch);
    expect(traceAllPairs({ fabric: ft.fabric, routing: r }, seededChooser(3))).toBe(3);
  });

  it("needs switch levels", () => {
    expect(() => dModK(parkingLot({ switches: 2, hostsPerSwitch: 2 }).fabric)).toThrow(TypeError);
  });
});
