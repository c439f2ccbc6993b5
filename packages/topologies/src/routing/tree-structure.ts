import type { FabricDescription } from "@cclab/fabric";
import { type Wiring, wiringOf } from "../wiring.js";

/**
 * A fabric read as a tree: every switch has a `level` (0 = leaf), a cable to a host or to a
 * lower-level switch is a down port, a cable to a higher-level switch is an up port. This is
 * what up/down tree routing needs: D-mod-k, nearest-common-ancestor with random up ports
 * (SRP paper, 000 line 92), and the down path of ECMP on trees.
 */
export interface TreeStructure {
  readonly wiring: Wiring;
  readonly level: Int32Array;
  /** Up ports of each switch, ascending. */
  readonly upPorts: readonly (readonly number[])[];
  /** Down ports of each switch (to hosts and lower switches), ascending. */
  readonly downPorts: readonly (readonly number[])[];
  /** `below[s][d] === 1` when host `d` can be reached from switch `s` going down only. */
  readonly below: readonly Uint8Array[];
  /** `reach[s][d] === 1` when host `d` can be reached from `s` going up, then down. */
  readonly reach: readonly Uint8Array[];
  /** Up ports per switch on each level (the most on that level), the radix of D-mod-k. */
  readonly upRadix: readonly number[];
  /** `digitWeight[l]` = product of `upRadix` below level `l`. */
  readonly digitWeight: readonly number[];
  /** Distinct switches each switch's up ports lead to. */
  readonly parentCount: Int32Array;
}

/**
 * Reads `fabric` as a tree. Throws a `TypeError` naming the switch when a switch has no level
 * or a cable joins two switches of the same level (`fn` names the caller in the message).
 */
export function treeStructureOf(fabric: FabricDescription, fn: string): TreeStructure {
  const wiring = wiringOf(fabric);
  const switchCount = fabric.switches.length;
  const hostCount = fabric.hosts.length;
  const level = new Int32Array(switchCount);
  fabric.switches.forEach((sw, s) => {
    if (sw.level === undefined) {
      throw new TypeError(
        `${fn}: switch "${sw.name}" (index ${s}) has no level; tree routing needs a level on every switch (0 = leaf)`,
      );
    }
    level[s] = sw.level;
  });
  const upPorts: number[][] = [];
  const downPorts: number[][] = [];
  const parentCount = new Int32Array(switchCount);
  for (let s = 0; s < switchCount; s++) {
    const up: number[] = [];
    const down: number[] = [];
    const parents = new Set<number>();
    wiring.switchPorts[s]!.forEach((peer, p) => {
      if (peer === undefined) return;
      if (peer.kind === "host") {
        down.push(p);
        return;
      }
      const other = level[peer.index]!;
      if (other === level[s]) {
        throw new TypeError(
          `${fn}: port ${p} of switch "${fabric.switches[s]!.name}" is cabled to switch "${fabric.switches[peer.index]!.name}" on the same level ${other}; tree routing needs every switch-to-switch cable to join two levels`,
        );
      }
      if (other > level[s]!) {
        up.push(p);
        parents.add(peer.index);
      } else {
        down.push(p);
      }
    });
    upPorts.push(up);
    downPorts.push(down);
    parentCount[s] = parents.size;
  }

  const byLevel = Array.from({ length: switchCount }, (_, s) => s).sort(
    (a, b) => level[a]! - level[b]! || a - b,
  );
  const below = byLevel.map(() => new Uint8Array(0));
  for (const s of byLevel) {
    const mine = new Uint8Array(hostCount);
    for (const p of downPorts[s]!) {
      const peer = wiring.switchPorts[s]![p]!;
      if (peer.kind === "host") mine[peer.index] = 1;
      else orInto(mine, below[peer.index]!);
    }
    below[s] = mine;
  }
  const reach = byLevel.map(() => new Uint8Array(0));
  for (let i = byLevel.length - 1; i >= 0; i--) {
    const s = byLevel[i]!;
    const mine = below[s]!.slice();
    for (const p of upPorts[s]!) orInto(mine, reach[wiring.switchPorts[s]![p]!.index]!);
    reach[s] = mine;
  }

  const topLevel = switchCount === 0 ? 0 : level[byLevel[byLevel.length - 1]!]!;
  const upRadix = new Array<number>(topLevel + 1).fill(0);
  for (let s = 0; s < switchCount; s++) {
    upRadix[level[s]!] = Math.max(upRadix[level[s]!]!, upPorts[s]!.length);
  }
  const digitWeight: number[] = [];
  let weight = 1;
  for (let l = 0; l <= topLevel; l++) {
    digitWeight.push(weight);
    weight *= Math.max(1, upRadix[l]!);
  }
  return { wiring, level, upPorts, downPorts, below, reach, upRadix, digitWeight, parentCount };
}

function orInto(target: Uint8Array, source: Uint8Array): void {
  for (let i = 0; i < target.length; i++) target[i]! |= source[i]!;
}

/**
 * The D-mod-k digit of destination `d` on `level`: `floor(d / Π_{j<level} w_j) mod w_level`,
 * with `w_j` the up ports per switch on level `j` (Zahavi's D-mod-k; in a k-ary n-tree, digit
 * `level` of `d` in base k).
 */
export function dModKDigit(tree: TreeStructure, level: number, d: number): number {
  const radix = tree.upRadix[level] ?? 0;
  if (radix === 0) return 0;
  return Math.floor(d / tree.digitWeight[level]!) % radix;
}

/** Writes into `out` the down ports of `s` that lead to host `d`, ascending. */
export function downPortsToward(tree: TreeStructure, s: number, d: number, out: number[]): void {
  out.length = 0;
  const ports = tree.wiring.switchPorts[s]!;
  for (const p of tree.downPorts[s]!) {
    const peer = ports[p]!;
    if (peer.kind === "host" ? peer.index === d : tree.below[peer.index]![d] === 1) out.push(p);
  }
}

/**
 * The one down port a deterministic down path takes from `s` toward `d`, given the down ports
 * toward `d` (non-empty). With parallel cables to one child it takes the cable with the same
 * index the child's D-mod-k up port has among its parallel cables (builders cable up port `j`
 * to parent `j mod parents`, parallel cable `floor(j / parents)`), so with D-mod-k each
 * parallel cable carries its own destinations.
 */
export function deterministicDownPort(
  tree: TreeStructure,
  d: number,
  toward: readonly number[],
  s: number,
): number {
  if (toward.length === 1) return toward[0]!;
  const peer = tree.wiring.switchPorts[s]![toward[0]!]!;
  const child = peer.index;
  const digit = dModKDigit(tree, tree.level[child]!, d);
  return toward[Math.floor(digit / Math.max(1, tree.parentCount[child]!)) % toward.length]!;
}

/** Writes into `out` the up ports of `s` whose far end can still reach host `d`. */
export function usableUpPorts(tree: TreeStructure, s: number, d: number, out: number[]): void {
  out.length = 0;
  const ports = tree.wiring.switchPorts[s]!;
  for (const p of tree.upPorts[s]!) {
    if (tree.reach[ports[p]!.index]![d] === 1) out.push(p);
  }
}
