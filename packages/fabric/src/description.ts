/**
 * A wired fabric, as data: the hosts, the switches, and the cables between their ports.
 * Topology builders return one; the network assembly turns it into running devices. Indices
 * are dense from 0 (host `h` is `hosts[h]`, switch `s` is `switches[s]`), so devices and
 * forwarding tables can live in arrays.
 */
export interface FabricDescription {
  /** Short name for reports, e.g. `"4-ary 3-tree"`. */
  readonly name: string;
  readonly hosts: readonly HostNode[];
  readonly switches: readonly SwitchNode[];
  /** Each cable is two independent links, one per direction, with equal rate and latency. */
  readonly cables: readonly Cable[];
}

/** An end node. It has exactly one port (port 0), cabled to a switch or to another host. */
export interface HostNode {
  readonly name: string;
}

export interface SwitchNode {
  readonly name: string;
  /** Number of ports, numbered 0 .. portCount − 1. Ports left uncabled are allowed. */
  readonly portCount: number;
  /** Level in a tree (0 = leaf), where the builder knows it; informational. */
  readonly level?: number;
}

/** One end of a cable: a host (always port 0) or a switch port. */
export type Endpoint =
  | { readonly kind: "host"; readonly index: number }
  | { readonly kind: "switch"; readonly index: number; readonly port: number };

export interface Cable {
  readonly a: Endpoint;
  readonly b: Endpoint;
  /** Signalling-independent data rate of each direction, in Gb/s. */
  readonly rateGbps: number;
  /** Propagation latency of each direction, in ns. */
  readonly latencyNs: number;
}

/**
 * How a switch picks among several candidate output ports for a destination:
 * - `first`: always the first candidate (deterministic routing: D-mod-k, FTREE-like);
 * - `flow-hash`: a hash of the flow id picks one (ECMP-like; a flow keeps its path);
 * - `random`: a fresh random choice per packet (the SRP paper's random up port).
 */
export type PortSelection = "first" | "flow-hash" | "random";

/** The forwarding table of one switch: candidate output ports per destination host. */
export interface ForwardingTable {
  /** `candidates[dstHost]`: output ports that lead to that host, never empty for a routable host. */
  readonly candidates: readonly (readonly number[])[];
  readonly selection: PortSelection;
}

/** Forwarding tables for every switch of a fabric, produced by a routing function. */
export interface Routing {
  /** e.g. `"d-mod-k"`, `"nca-random"`, `"ecmp"`, `"shortest-path"`. */
  readonly name: string;
  /** `tables[s]` belongs to `switches[s]`. */
  readonly tables: readonly ForwardingTable[];
}

/** What a topology builder returns: the wiring plus the routing it was built for. */
export interface Topology {
  readonly fabric: FabricDescription;
  readonly routing: Routing;
}
