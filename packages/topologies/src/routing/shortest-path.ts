import type { FabricDescription, ForwardingTable, PortSelection, Routing } from "@cclab/fabric";
import { choiceOption, optionBag } from "../options.js";
import { type Wiring, wiringOf } from "../wiring.js";
import { assertTableBudget, CandidateLists } from "./candidate-lists.js";

export const PORT_SELECTIONS: readonly PortSelection[] = ["first", "flow-hash", "random"];

export interface ShortestPathOptions {
  /** How a switch picks among the shortest ports; default `"first"` (deterministic). */
  readonly selection?: PortSelection;
}

/**
 * Minimum-hop routing for any graph: a breadth-first search from each destination gives every
 * switch its distance in links; the candidates of switch `s` for host `d` are all ports of `s`
 * that lead one link closer (ascending port order). Every step lowers the distance, so routes
 * are loop-free whatever candidate a switch picks. Unreachable destinations get no candidates
 * (`checkRouting` reports them).
 */
export function shortestPath(fabric: FabricDescription, opts?: ShortestPathOptions): Routing {
  const bag = optionBag("shortestPath", opts, ["selection"]);
  const selection = choiceOption(
    "shortestPath",
    "selection",
    bag.selection,
    PORT_SELECTIONS,
    "first",
  );
  const wiring = wiringOf(fabric);
  assertTableBudget(fabric, "shortestPath");
  const tables = shortestCandidates(wiring, () => false).map(
    (candidates): ForwardingTable => ({ candidates, selection }),
  );
  return { name: "shortest-path", tables };
}

/**
 * Candidate lists of every switch for every destination: the shortest ports, except where
 * `override(s, d)` returns a list (used by ECMP on trees to pin the down path).
 */
export function shortestCandidates(
  wiring: Wiring,
  override: (s: number, d: number) => readonly number[] | false,
): (readonly number[])[][] {
  const switchCount = wiring.switchPorts.length;
  const hostCount = wiring.hostPeers.length;
  const lists = wiring.switchPorts.map((ports) => new CandidateLists(ports.length));
  const tables = wiring.switchPorts.map(() => new Array<readonly number[]>(hostCount));
  const dist = new Int32Array(switchCount);
  const queue = new Int32Array(switchCount);
  const scratch: number[] = [];
  for (let d = 0; d < hostCount; d++) {
    distancesToHost(wiring, d, dist, queue);
    for (let s = 0; s < switchCount; s++) {
      const pinned = override(s, d);
      if (pinned !== false) {
        tables[s]![d] = lists[s]!.of(pinned);
        continue;
      }
      shortestPorts(wiring, dist, s, d, scratch);
      tables[s]![d] = lists[s]!.of(scratch);
    }
  }
  return tables;
}

/**
 * Fills `dist[s]` with the number of switch-to-switch links between switch `s` and the switch
 * host `d` hangs on (0 there), or −1 where `d` cannot be reached. `queue` is scratch space of
 * one slot per switch.
 */
export function distancesToHost(
  wiring: Wiring,
  d: number,
  dist: Int32Array,
  queue: Int32Array,
): void {
  dist.fill(-1);
  const attach = wiring.hostPeers[d];
  if (attach === undefined || attach.kind !== "switch") return;
  let head = 0;
  let tail = 0;
  dist[attach.index] = 0;
  queue[tail++] = attach.index;
  while (head < tail) {
    const s = queue[head++]!;
    const next = dist[s]! + 1;
    for (const peer of wiring.switchPorts[s]!) {
      if (peer !== undefined && peer.kind === "switch" && dist[peer.index] === -1) {
        dist[peer.index] = next;
        queue[tail++] = peer.index;
      }
    }
  }
}

/** Writes into `out` the ports of switch `s` that lead one link closer to host `d`. */
export function shortestPorts(
  wiring: Wiring,
  dist: Int32Array,
  s: number,
  d: number,
  out: number[],
): void {
  out.length = 0;
  const here = dist[s]!;
  if (here < 0) return;
  const ports = wiring.switchPorts[s]!;
  for (let p = 0; p < ports.length; p++) {
    const peer = ports[p];
    if (peer === undefined) continue;
    if (peer.kind === "host" ? here === 0 && peer.index === d : dist[peer.index] === here - 1) {
      out.push(p);
    }
  }
}
