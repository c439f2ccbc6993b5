import type { Routing } from "@cclab/fabric";
import type { PortPeer, Wiring } from "../wiring.js";

/** One switch on a route: where the packet came in and where it leaves. */
export interface RouteHop {
  readonly switchIndex: number;
  readonly inPort: number;
  readonly outPort: number;
}

/** Picks one of a switch's candidates; the default takes the first, as selection `"first"` does. */
export type CandidateChooser = (candidates: readonly number[], switchIndex: number) => number;

const firstCandidate: CandidateChooser = (candidates) => candidates[0]!;

/**
 * The switches a packet from host `src` to host `dst` crosses, following `routing` and letting
 * `choose` pick among candidates (the first by default). Useful for the ideal (idle-network)
 * completion time (docs/model.md, "What is measured"), which sums per-hop delays, and for
 * path-based tests. Throws a `RangeError` for a host that is not cabled, a dead end, or a
 * route that revisits a switch. Pass `wiringOf(fabric)`, computed once, when tracing many
 * routes.
 */
export function traceRoute(
  wiring: Wiring,
  routing: Routing,
  src: number,
  dst: number,
  choose: CandidateChooser = firstCandidate,
): RouteHop[] {
  const { fabric } = wiring;
  for (const [role, h] of [
    ["src", src],
    ["dst", dst],
  ] as const) {
    if (!Number.isInteger(h) || h < 0 || h >= fabric.hosts.length) {
      throw new RangeError(
        `traceRoute: ${role} must be a host index in 0..${fabric.hosts.length - 1}, got ${h}`,
      );
    }
  }
  const hops: RouteHop[] = [];
  const start = wiring.hostPeers[src];
  if (start === undefined)
    throw new RangeError(`traceRoute: host "${fabric.hosts[src]!.name}" is not cabled`);
  let at: PortPeer = start;
  const seen = new Set<number>();
  while (at.kind === "switch") {
    const s = at.index;
    const name = fabric.switches[s]!.name;
    if (seen.has(s))
      throw new RangeError(
        `traceRoute: route to "${fabric.hosts[dst]!.name}" revisits switch "${name}"`,
      );
    seen.add(s);
    const candidates = routing.tables[s]?.candidates[dst];
    if (candidates === undefined || candidates.length === 0) {
      throw new RangeError(
        `traceRoute: switch "${name}" has no candidate port for "${fabric.hosts[dst]!.name}"`,
      );
    }
    const outPort = choose(candidates, s);
    const next = wiring.switchPorts[s]![outPort];
    if (next === undefined)
      throw new RangeError(`traceRoute: port ${outPort} of switch "${name}" is not cabled`);
    hops.push({ switchIndex: s, inPort: at.port, outPort });
    at = next;
  }
  if (at.index !== dst) {
    throw new RangeError(
      `traceRoute: route from "${fabric.hosts[src]!.name}" ends at host "${fabric.hosts[at.index]!.name}", not "${fabric.hosts[dst]!.name}"`,
    );
  }
  return hops;
}
