import type { FabricDescription } from "@cclab/fabric";
import { wiringOf } from "@cclab/topologies";

/**
 * One port of the fabric, named by its device and number (`S3.p5`, `H17.p0`) and by what its
 * cable leads to (`H17`, `S2.p1`), so results read as the fabric's drawing does
 * (docs/model.md, "Port names").
 */
export interface PortEntry {
  readonly kind: "switch" | "host";
  /** Switch or host index. */
  readonly index: number;
  readonly device: string;
  readonly port: number;
  /** `S3.p5`: the device's name, `.p` and the port number. */
  readonly name: string;
  /** What the cable leads to: a host's name, a switch port's name, or `-` when uncabled. */
  readonly peer: string;
  /** `S3.p5 → H17`. */
  readonly label: string;
  /** The cable's rate and latency, or null when uncabled. */
  readonly rateGbps: number | null;
  readonly latencyNs: number | null;
}

export const UNCABLED = "-";

export function portName(device: string, port: number): string {
  return `${device}.p${port}`;
}

/** Every port of a fabric: each switch's ports in order, then each host's port 0. */
export class PortMap {
  readonly entries: readonly PortEntry[];
  private readonly switchStart: readonly number[];
  private readonly hostStart: number;
  private readonly byName: ReadonlyMap<string, PortEntry>;

  constructor(fabric: FabricDescription) {
    const wiring = wiringOf(fabric);
    const peerName = (peer: { kind: "host" | "switch"; index: number; port: number }) =>
      peer.kind === "host"
        ? fabric.hosts[peer.index]!.name
        : portName(fabric.switches[peer.index]!.name, peer.port);
    const entries: PortEntry[] = [];
    const switchStart: number[] = [];
    const add = (
      kind: "switch" | "host",
      index: number,
      device: string,
      port: number,
      peer: { kind: "host" | "switch"; index: number; port: number; cable: number } | undefined,
    ) => {
      const name = portName(device, port);
      const to = peer === undefined ? UNCABLED : peerName(peer);
      const cable = peer === undefined ? undefined : fabric.cables[peer.cable];
      entries.push({
        kind,
        index,
        device,
        port,
        name,
        peer: to,
        label: `${name} → ${to}`,
        rateGbps: cable?.rateGbps ?? null,
        latencyNs: cable?.latencyNs ?? null,
      });
    };
    fabric.switches.forEach((sw, s) => {
      switchStart.push(entries.length);
      for (const [p, peer] of wiring.switchPorts[s]!.entries()) add("switch", s, sw.name, p, peer);
    });
    this.hostStart = entries.length;
    for (const [i, h] of fabric.hosts.entries()) add("host", i, h.name, 0, wiring.hostPeers[i]);
    this.entries = entries;
    this.switchStart = switchStart;
    this.byName = new Map(entries.map((e) => [e.name, e]));
  }

  switchPort(sw: number, port: number): PortEntry {
    return this.entries[this.switchStart[sw]! + port]!;
  }

  hostPort(host: number): PortEntry {
    return this.entries[this.hostStart + host]!;
  }

  /** The port called `name` (`S3.p5`, `H17.p0`), or undefined. */
  find(name: string): PortEntry | undefined {
    return this.byName.get(name);
  }

  /** The map as CSV: one row per port. */
  csv(): string {
    const lines = ["name,device,port,peer,rate_gbps,latency_ns"];
    for (const e of this.entries) {
      lines.push(
        `${e.name},${e.device},${e.port},${e.peer},${e.rateGbps ?? ""},${e.latencyNs ?? ""}`,
      );
    }
    return `${lines.join("\n")}\n`;
  }

  /** The map as an aligned text table, for `cclab topology`. */
  text(): string[] {
    const rows = this.entries.map((e) => [
      e.name,
      "→",
      e.peer,
      e.rateGbps === null ? "" : `${e.rateGbps} Gb/s`,
      e.latencyNs === null ? "" : `${e.latencyNs} ns`,
    ]);
    const widths = [0, 1, 2, 3, 4].map((c) =>
      Math.max(
        ...[
          ["port", "", "cabled to", "rate", "latency"][c]!.length,
          ...rows.map((r) => r[c]!.length),
        ],
      ),
    );
    const line = (r: string[]) =>
      r
        .map((cell, c) => (c >= 3 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
        .join("  ")
        .trimEnd();
    return [line(["port", "", "cabled to", "rate", "latency"]), ...rows.map(line)];
  }
}
