import type { FabricDescription, Routing } from "@cclab/fabric";
import { type Wiring, wiringOf } from "../wiring.js";
import { PORT_SELECTIONS } from "./shortest-path.js";

/** What is wrong with a routing, and where (when the problem belongs to one switch and host). */
export interface RoutingProblem {
  readonly message: string;
  readonly switchIndex?: number;
  readonly hostIndex?: number;
}

/** Thrown by `checkRouting`; carries the switch and destination host it is about. */
export class RoutingError extends Error {
  readonly switchIndex: number | undefined;
  readonly hostIndex: number | undefined;

  constructor(problem: RoutingProblem) {
    super(problem.message);
    this.name = "RoutingError";
    this.switchIndex = problem.switchIndex;
    this.hostIndex = problem.hostIndex;
  }
}

/** What a sound routing looks like from the outside. */
export interface RoutingCheck {
  /**
   * Most links a packet can cross from a switch to its destination (the last link included),
   * over all switches, destinations and candidate choices.
   */
  readonly maxHops: number;
}

/**
 * Verifies that `routing` delivers everything: one table per switch and one candidate list per
 * host; and from every switch, for every destination host, following any candidate at every
 * switch reaches the destination without visiting a switch twice (so within
 * `switches.length` switches). Throws a `RoutingError` naming the switch and destination:
 * an empty candidate list, a port out of range or uncabled, a port that leads to another
 * host, or a loop (with the switches on it).
 */
export function checkRouting(fabric: FabricDescription, routing: Routing): RoutingCheck {
  const result = inspect(fabric, routing);
  if ("message" in result) throw new RoutingError(result);
  return result;
}

/** Like `checkRouting`, but returns the first problem found instead of throwing (undefined if none). */
export function findRoutingProblem(
  fabric: FabricDescription,
  routing: Routing,
): RoutingProblem | undefined {
  const result = inspect(fabric, routing);
  return "message" in result ? result : undefined;
}

const UNSEEN = 0;
const ON_PATH = 1;
const DONE = 2;

function inspect(fabric: FabricDescription, routing: Routing): RoutingCheck | RoutingProblem {
  const wiring = wiringOf(fabric);
  const switchCount = fabric.switches.length;
  const hostCount = fabric.hosts.length;
  const tag = `routing "${routing?.name}" on fabric "${fabric.name}"`;
  if (!Array.isArray(routing?.tables) || routing.tables.length !== switchCount) {
    return {
      message: `${tag}: needs ${switchCount} tables (one per switch), got ${routing?.tables?.length}`,
    };
  }
  for (let s = 0; s < switchCount; s++) {
    const table = routing.tables[s];
    const at = `${tag}: switch ${switchName(fabric, s)}`;
    if (!Array.isArray(table?.candidates) || table.candidates.length !== hostCount) {
      return {
        message: `${at}: table needs ${hostCount} candidate lists (one per host), got ${table?.candidates?.length}`,
        switchIndex: s,
      };
    }
    if (!PORT_SELECTIONS.includes(table.selection)) {
      return {
        message: `${at}: selection must be one of ${PORT_SELECTIONS.join(", ")}, got ${String(table.selection)}`,
        switchIndex: s,
      };
    }
  }
  let maxHops = 0;
  const state = new Uint8Array(switchCount);
  const hops = new Int32Array(switchCount);
  const stackSwitch = new Int32Array(switchCount);
  const stackNext = new Int32Array(switchCount);
  for (let d = 0; d < hostCount; d++) {
    state.fill(UNSEEN);
    for (let root = 0; root < switchCount; root++) {
      if (state[root] !== UNSEEN) continue;
      // Iterative depth-first search over "some candidate of s leads to t": a switch met again
      // while still on the path closes a loop; `hops` is the longest way on to `d`.
      let depth = 0;
      stackSwitch[0] = root;
      stackNext[0] = 0;
      state[root] = ON_PATH;
      hops[root] = 0;
      while (depth >= 0) {
        const s = stackSwitch[depth]!;
        const candidates = routing.tables[s]!.candidates[d]!;
        if (stackNext[depth] === 0 && (!Array.isArray(candidates) || candidates.length === 0)) {
          return problem(fabric, s, d, tag, "has no candidate port");
        }
        const i = stackNext[depth]!;
        if (i === candidates.length) {
          state[s] = DONE;
          if (hops[s]! > maxHops) maxHops = hops[s]!;
          depth--;
          if (depth >= 0) {
            const up = stackSwitch[depth]!;
            if (hops[s]! + 1 > hops[up]!) hops[up] = hops[s]! + 1;
          }
          continue;
        }
        stackNext[depth] = i + 1;
        const port = candidates[i]!;
        const next = follow(wiring, s, d, port);
        if (typeof next === "string") return problem(fabric, s, d, tag, next);
        if (next === -1) {
          if (hops[s]! < 1) hops[s] = 1;
          continue;
        }
        if (state[next] === DONE) {
          if (hops[next]! + 1 > hops[s]!) hops[s] = hops[next]! + 1;
          continue;
        }
        if (state[next] === ON_PATH) {
          const loop: string[] = [];
          for (let k = 0; k <= depth; k++) {
            if (loop.length > 0 || stackSwitch[k] === next)
              loop.push(fabric.switches[stackSwitch[k]!]!.name);
          }
          loop.push(fabric.switches[next]!.name);
          return problem(fabric, s, d, tag, `loops back through port ${port}: ${loop.join(" → ")}`);
        }
        depth++;
        stackSwitch[depth] = next;
        stackNext[depth] = 0;
        state[next] = ON_PATH;
        hops[next] = 0;
      }
    }
  }
  return { maxHops };
}

/** The switch that `port` of `s` leads to, −1 for destination `d` itself, or what is wrong. */
function follow(wiring: Wiring, s: number, d: number, port: number): number | string {
  const ports = wiring.switchPorts[s]!;
  if (!Number.isInteger(port) || port < 0 || port >= ports.length) {
    return `lists port ${String(port)}, outside 0..${ports.length - 1}`;
  }
  const peer = ports[port];
  if (peer === undefined) return `lists port ${port}, which is not cabled`;
  if (peer.kind === "switch") return peer.index;
  if (peer.index === d) return -1;
  return `lists port ${port}, which leads to host "${wiring.fabric.hosts[peer.index]!.name}" instead`;
}

function problem(
  fabric: FabricDescription,
  s: number,
  d: number,
  tag: string,
  what: string,
): RoutingProblem {
  return {
    message: `${tag}: switch ${switchName(fabric, s)}, destination host "${fabric.hosts[d]!.name}" (index ${d}): ${what}`,
    switchIndex: s,
    hostIndex: d,
  };
}

function switchName(fabric: FabricDescription, s: number): string {
  return `"${fabric.switches[s]!.name}" (index ${s})`;
}
