import type { Topology } from "@cclab/fabric";
import { traceRoute } from "../src/routing/trace-route.js";
import { wiringOf } from "../src/wiring.js";

/**
 * Traces every ordered pair of distinct hosts with `choose` (first candidate by default) and
 * returns the number of switches on the longest route. Throws if any route fails.
 */
export function traceAllPairs(
  { fabric, routing }: Topology,
  choose?: (candidates: readonly number[], switchIndex: number) => number,
): number {
  const wiring = wiringOf(fabric);
  let longest = 0;
  for (let src = 0; src < fabric.hosts.length; src++) {
    for (let dst = 0; dst < fabric.hosts.length; dst++) {
      if (src === dst) continue;
      const hops = traceRoute(wiring, routing, src, dst, choose);
      if (hops.length > longest) longest = hops.length;
    }
  }
  return longest;
}

/** A deterministic pseudo-random chooser (xorshift), so "any candidate" tests are repeatable. */
export function seededChooser(seed: number): (candidates: readonly number[]) => number {
  let x = seed | 0 || 1;
  return (candidates) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return candidates[(x >>> 0) % candidates.length]!;
  };
}
