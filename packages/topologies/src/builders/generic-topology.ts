import type { PortSelection, Topology } from "@cclab/fabric";
import { FabricBuilder, hostEnd, switchEnd } from "../fabric-builder.js";
import {
  choiceOption,
  describeValue,
  GENERIC_LINK_DEFAULTS,
  latencyOption,
  rateOption,
} from "../options.js";
import { checkRouting, RoutingError } from "../routing/check-routing.js";
import { ROUTING_NAMES, type RoutingName, routingByName } from "../routing/routing-by-name.js";
import { PORT_SELECTIONS, shortestPath } from "../routing/shortest-path.js";

/** A link end: a node name (a switch then gets its lowest free port), or a node and a port. */
export type GenericEndpointSpec = string | { readonly node: string; readonly port?: number };

export interface GenericHostSpec {
  readonly kind: "host";
  readonly name: string;
}

export interface GenericSwitchSpec {
  readonly kind: "switch";
  readonly name: string;
  /** Port count; default: as many as its links need. */
  readonly ports?: number;
  /** Tree level (0 = leaf); needed on every switch for `"d-mod-k"`, `"nca-random"`. */
  readonly level?: number;
}

export type GenericNodeSpec = GenericHostSpec | GenericSwitchSpec;

export interface GenericLinkSpec {
  readonly a: GenericEndpointSpec;
  readonly b: GenericEndpointSpec;
  /** Data rate of each direction in Gb/s; default the spec's `rateGbps`. */
  readonly rateGbps?: number;
  /** Propagation latency of each direction in ns; default the spec's `latencyNs`. */
  readonly latencyNs?: number;
}

/**
 * A topology as plain data (what a JSON or YAML file holds). Host `i` of the fabric is the
 * `i`-th host in `nodes`, switch `j` the `j`-th switch, cable `c` is `links[c]`.
 */
export interface GenericTopologySpec {
  readonly name?: string;
  /** Default data rate of links, in Gb/s; default 100. */
  readonly rateGbps?: number;
  /** Default latency of links, in ns; default 1000. */
  readonly latencyNs?: number;
  /** Default `"shortest-path"`. */
  readonly routing?: RoutingName;
  /** Port selection of `"shortest-path"` routing; default `"first"`. */
  readonly selection?: PortSelection;
  readonly nodes: readonly GenericNodeSpec[];
  readonly links: readonly GenericLinkSpec[];
}

const FN = "genericTopology";
const SPEC_KEYS = ["name", "rateGbps", "latencyNs", "routing", "selection", "nodes", "links"];
const HOST_KEYS = ["kind", "name"];
const SWITCH_KEYS = ["kind", "name", "ports", "level"];
const LINK_KEYS = ["a", "b", "rateGbps", "latencyNs"];
const ENDPOINT_KEYS = ["node", "port"];
const MAX_PORTS = 4096;

interface NodeInfo {
  readonly kind: "host" | "switch";
  /** Position in `nodes`. */
  readonly at: number;
  /** Index among hosts or among switches. */
  readonly index: number;
  readonly ports: number | undefined;
  /** `used[port]` = link that uses the port. */
  readonly used: Map<number, number>;
}

interface End {
  readonly node: NodeInfo;
  port: number | undefined;
  readonly field: string;
}

/**
 * Builds a topology from a plain-object spec, checking everything a hand-written file gets
 * wrong. Errors name the field (`links[3].b.port`): `TypeError` for unknown keys, wrong types
 * and unknown node names; `RangeError` for ports out of range, a port or host used twice,
 * a link from a node to itself, rates ≤ 0 or latencies < 0, and nodes without links. The
 * default routing is `shortestPath`; a graph that does not connect every host to every switch
 * fails the `checkRouting` run at the end with a `RoutingError`.
 */
export function genericTopology(spec: GenericTopologySpec): Topology {
  const root = record(spec, "spec", SPEC_KEYS);
  const name = root.name === undefined ? "generic topology" : nonEmptyString(root.name, "name");
  const rateGbps = rateOption(FN, "rateGbps", root.rateGbps, GENERIC_LINK_DEFAULTS.rateGbps);
  const latencyNs = latencyOption(FN, "latencyNs", root.latencyNs, GENERIC_LINK_DEFAULTS.latencyNs);
  const routing = choiceOption(FN, "routing", root.routing, ROUTING_NAMES, "shortest-path");
  const selection = choiceOption(FN, "selection", root.selection, PORT_SELECTIONS, "first");
  if (root.selection !== undefined && routing !== "shortest-path") {
    throw new TypeError(
      `${FN}: "selection" applies to routing "shortest-path" only; "${routing}" sets its own`,
    );
  }
  const nodes = array(root.nodes, "nodes");
  const links = array(root.links, "links");

  const byName = new Map<string, NodeInfo>();
  const hostNames: string[] = [];
  const switchSpecs: { name: string; level: number | undefined }[] = [];
  nodes.forEach((raw, i) => {
    const field = `nodes[${i}]`;
    const kind = record(raw, field, undefined).kind;
    if (kind !== "host" && kind !== "switch") {
      throw new TypeError(
        `${FN}: ${field}.kind must be "host" or "switch", got ${describeValue(kind)}`,
      );
    }
    const node = record(raw, field, kind === "host" ? HOST_KEYS : SWITCH_KEYS);
    const nodeName = nonEmptyString(node.name, `${field}.name`);
    const previous = byName.get(nodeName);
    if (previous !== undefined) {
      throw new RangeError(
        `${FN}: ${field}.name: duplicate name "${nodeName}" (also nodes[${previous.at}])`,
      );
    }
    if (kind === "host") {
      byName.set(nodeName, {
        kind,
        at: i,
        index: hostNames.length,
        ports: undefined,
        used: new Map(),
      });
      hostNames.push(nodeName);
      return;
    }
    const ports = optionalInt(node.ports, `${field}.ports`, 1, MAX_PORTS);
    const level = optionalInt(node.level, `${field}.level`, 0, 1024);
    if (level === undefined && (routing === "d-mod-k" || routing === "nca-random")) {
      throw new TypeError(
        `${FN}: ${field}.level: routing "${routing}" needs a level on every switch (0 = leaf)`,
      );
    }
    byName.set(nodeName, { kind, at: i, index: switchSpecs.length, ports, used: new Map() });
    switchSpecs.push({ name: nodeName, level });
  });
  if (hostNames.length === 0) throw new RangeError(`${FN}: "nodes" must include at least one host`);

  // First the ports a link names, then the lowest free ports for the rest, so an explicit
  // port never collides with one handed out earlier in the file.
  const ends: [End, End][] = links.map((raw, c) => {
    const field = `links[${c}]`;
    const link = record(raw, field, LINK_KEYS);
    const a = endpoint(link.a, `${field}.a`, byName);
    const b = endpoint(link.b, `${field}.b`, byName);
    if (a.node === b.node) {
      throw new RangeError(
        `${FN}: ${field}: both ends are node "${nameOf(a.node, nodes)}"; a link joins two different nodes`,
      );
    }
    return [a, b];
  });
  ends.forEach((pair, c) => {
    for (const end of pair)
      if (end.node.kind === "host" || end.port !== undefined) claim(end, c, end.port ?? 0, nodes);
  });
  ends.forEach((pair, c) => {
    for (const end of pair) {
      if (end.port !== undefined || end.node.kind === "host") continue;
      let port = 0;
      while (end.node.used.has(port)) port++;
      if (end.node.ports !== undefined && port >= end.node.ports) {
        throw new RangeError(
          `${FN}: ${end.field}: switch "${nameOf(end.node, nodes)}" has no free port left (ports: ${end.node.ports})`,
        );
      }
      end.port = port;
      claim(end, c, port, nodes);
    }
  });
  for (const node of byName.values()) {
    if (node.used.size === 0) {
      throw new RangeError(
        `${FN}: nodes[${node.at}]: ${node.kind} "${nameOf(node, nodes)}" has no link`,
      );
    }
  }

  const b = new FabricBuilder();
  for (const h of hostNames) b.addHost(h);
  for (const sw of switchSpecs) {
    const info = byName.get(sw.name)!;
    b.addSwitch(sw.name, info.ports ?? Math.max(...info.used.keys()) + 1, sw.level);
  }
  links.forEach((raw, c) => {
    const link = raw as Record<string, unknown>;
    const params = {
      rateGbps: rateOption(FN, `links[${c}].rateGbps`, link.rateGbps, rateGbps),
      latencyNs: latencyOption(FN, `links[${c}].latencyNs`, link.latencyNs, latencyNs),
    };
    const [a, z] = ends[c]!;
    b.connect(toEndpoint(a), toEndpoint(z), params);
  });
  const fabric = b.build(name);
  const tables =
    routing === "shortest-path"
      ? shortestPath(fabric, { selection })
      : routingByName(routing, fabric);
  try {
    checkRouting(fabric, tables);
  } catch (e) {
    if (!(e instanceof RoutingError)) throw e;
    throw new RoutingError({
      message: `${FN}: not every host can be reached from every switch: ${e.message}`,
      ...(e.switchIndex === undefined ? {} : { switchIndex: e.switchIndex }),
      ...(e.hostIndex === undefined ? {} : { hostIndex: e.hostIndex }),
    });
  }
  return { fabric, routing: tables };
}

/**
 * Builds a topology from the text of a JSON file holding a `GenericTopologySpec`. Reading the
 * file is the caller's part (this package runs in browsers too). Invalid JSON gives a
 * `SyntaxError`; the rest is `genericTopology`'s checking.
 */
export function fromFile(json: string): Topology {
  if (typeof json !== "string") {
    throw new TypeError(
      `fromFile: expects the file's text as a string, got ${describeValue(json)}`,
    );
  }
  let spec: unknown;
  try {
    spec = JSON.parse(json);
  } catch (e) {
    throw new SyntaxError(`fromFile: not valid JSON: ${(e as Error).message}`);
  }
  return genericTopology(spec as GenericTopologySpec);
}

function claim(end: End, link: number, port: number, nodes: readonly unknown[]): void {
  const other = end.node.used.get(port);
  if (other !== undefined) {
    const what =
      end.node.kind === "host"
        ? `host "${nameOf(end.node, nodes)}" is already linked by links[${other}] (a host has one port)`
        : `port ${port} of switch "${nameOf(end.node, nodes)}" is already used by links[${other}]`;
    throw new RangeError(`${FN}: ${end.field}: ${what}`);
  }
  end.node.used.set(port, link);
}

function endpoint(raw: unknown, field: string, byName: ReadonlyMap<string, NodeInfo>): End {
  let nodeName: unknown = raw;
  let port: number | undefined;
  let nodeField = field;
  if (typeof raw !== "string") {
    const e = record(raw, field, ENDPOINT_KEYS);
    nodeName = e.node;
    nodeField = `${field}.node`;
    port = optionalInt(e.port, `${field}.port`, 0, MAX_PORTS - 1);
  }
  if (typeof nodeName !== "string") {
    throw new TypeError(`${FN}: ${nodeField} must be a node name, got ${describeValue(nodeName)}`);
  }
  const node = byName.get(nodeName);
  if (node === undefined)
    throw new TypeError(`${FN}: ${nodeField}: unknown node ${JSON.stringify(nodeName)}`);
  if (port !== undefined) {
    if (node.kind === "host" && port !== 0) {
      throw new RangeError(`${FN}: ${field}.port: host "${nodeName}" has only port 0, got ${port}`);
    }
    if (node.ports !== undefined && port >= node.ports) {
      throw new RangeError(
        `${FN}: ${field}.port: switch "${nodeName}" has ports 0..${node.ports - 1}, got ${port}`,
      );
    }
  }
  return { node, port, field };
}

function toEndpoint(end: End) {
  return end.node.kind === "host" ? hostEnd(end.node.index) : switchEnd(end.node.index, end.port!);
}

function nameOf(node: NodeInfo, nodes: readonly unknown[]): string {
  return (nodes[node.at] as { name: string }).name;
}

/** `value` as an object whose keys are all in `allowed` (any keys when `allowed` is undefined). */
function record(
  value: unknown,
  field: string,
  allowed: readonly string[] | undefined,
): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError(`${FN}: ${field} must be an object, got ${describeValue(value)}`);
  }
  for (const key of allowed === undefined ? [] : Object.keys(value)) {
    if (!allowed!.includes(key)) {
      throw new TypeError(
        `${FN}: ${field}: unknown key "${key}" (allowed: ${allowed!.join(", ")})`,
      );
    }
  }
  return value as Record<string, unknown>;
}

function array(value: unknown, field: string): readonly unknown[] {
  if (!Array.isArray(value))
    throw new TypeError(`${FN}: "${field}" must be an array, got ${describeValue(value)}`);
  return value;
}

function nonEmptyString(value: unknown, field: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new TypeError(`${FN}: ${field} must be a non-empty string, got ${describeValue(value)}`);
  }
  return value;
}

function optionalInt(value: unknown, field: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number")
    throw new TypeError(`${FN}: ${field} must be a number, got ${describeValue(value)}`);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${FN}: ${field} must be an integer in ${min}..${max}, got ${value}`);
  }
  return value;
}
