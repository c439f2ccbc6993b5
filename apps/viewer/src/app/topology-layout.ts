import type { PortRow } from "../data/types.js";

export interface NodeBox {
  readonly name: string;
  readonly kind: "host" | "switch";
  readonly layer: number;
  x: number;
  y: number;
}

/** A cable between two ports, each end named (`S1.p3`, `H4.p0`). */
export interface Cable {
  readonly a: string;
  readonly b: string;
  readonly deviceA: string;
  readonly deviceB: string;
}

export interface Layout {
  readonly nodes: readonly NodeBox[];
  readonly cables: readonly Cable[];
  readonly width: number;
  readonly height: number;
}

/** The device of a port name or peer (`S2.p0` → `S2`, `H5` → `H5`). */
export const deviceOf = (port: string) => port.split(".")[0]!;
/** A peer as a port name: a host's peer is written `H5`, its only port is `H5.p0`. */
export const portOf = (peer: string) => (peer.includes(".") ? peer : `${peer}.p0`);
/**
 * The hosts of a port map: a switch port cabled to a host names the host alone as its peer
 * (`S3.p5 → H17`, docs/model.md "Port names"), a switch port by its port name (`S2.p1`).
 */
export function hostsOf(ports: readonly PortRow[]): Set<string> {
  return new Set(ports.filter((p) => p.peer !== "-" && !p.peer.includes(".")).map((p) => p.peer));
}

/**
 * Places the fabric of a port map in rows: hosts at the bottom, each switch one row above the
 * lowest row it has a cable to (leaves, then spines…), a row ordered so cables cross little
 * (switches by the mean position of what they connect to below, hosts under their switch).
 */
export function layoutTopology(ports: readonly PortRow[], width: number): Layout {
  const cables = new Map<string, Cable>();
  const neighbours = new Map<string, Set<string>>();
  const link = (a: string, b: string) => {
    if (!neighbours.has(a)) neighbours.set(a, new Set());
    neighbours.get(a)!.add(b);
  };
  for (const p of ports) {
    link(p.device, p.device);
    if (p.peer === "-" || p.peer === "") continue;
    const b = portOf(p.peer);
    const key = [p.name, b].sort().join("|");
    if (!cables.has(key)) {
      cables.set(key, { a: p.name, b, deviceA: p.device, deviceB: deviceOf(b) });
    }
    link(p.device, deviceOf(b));
    link(deviceOf(b), p.device);
  }
  const hosts = hostsOf(ports);
  const isHost = (d: string) => hosts.has(d);
  const devices = [...neighbours.keys()].sort((x, y) =>
    x.localeCompare(y, undefined, { numeric: true }),
  );
  const layer = new Map<string, number>();
  let frontier = devices.filter(isHost);
  for (const d of frontier) layer.set(d, 0);
  for (let l = 1; frontier.length > 0; l++) {
    const next = new Set<string>();
    for (const d of frontier) {
      for (const n of neighbours.get(d) ?? []) if (!layer.has(n)) next.add(n);
    }
    for (const n of next) layer.set(n, l);
    frontier = [...next];
  }
  for (const d of devices) if (!layer.has(d)) layer.set(d, 1); // no host below it
  const rows = Math.max(...layer.values(), 0) + 1;
  const byLayer = Array.from({ length: rows }, (_, l) => devices.filter((d) => layer.get(d) === l));
  const order = new Map<string, number>();
  const setOrder = (row: string[]) =>
    row.forEach((d, i) => {
      order.set(d, i / Math.max(1, row.length - 1));
    });
  // Leaves by name; hosts under the first leaf they connect to; upper rows by barycentre.
  if (rows > 1) setOrder(byLayer[1]!);
  const hostKey = (d: string) => {
    const up = [...(neighbours.get(d) ?? [])].filter((n) => n !== d).map((n) => order.get(n) ?? 0);
    return up.length === 0 ? 0 : Math.min(...up);
  };
  byLayer[0]!.sort(
    (x, y) => hostKey(x) - hostKey(y) || x.localeCompare(y, undefined, { numeric: true }),
  );
  setOrder(byLayer[0]!);
  for (let l = 2; l < rows; l++) {
    const bary = (d: string) => {
      const below = [...(neighbours.get(d) ?? [])].filter((n) => layer.get(n) === l - 1);
      return below.reduce((s, n) => s + (order.get(n) ?? 0), 0) / Math.max(1, below.length);
    };
    byLayer[l]!.sort((x, y) => bary(x) - bary(y));
    setOrder(byLayer[l]!);
  }
  const rowGap = 110;
  const margin = 40;
  const nodes: NodeBox[] = [];
  byLayer.forEach((row, l) => {
    const y = margin + (rows - 1 - l) * rowGap;
    row.forEach((d, i) => {
      const x = margin + ((i + 0.5) / row.length) * (width - 2 * margin);
      nodes.push({ name: d, kind: isHost(d) ? "host" : "switch", layer: l, x, y });
    });
  });
  return {
    nodes,
    cables: [...cables.values()],
    width,
    height: margin * 2 + (rows - 1) * rowGap + 20,
  };
}
