import type { FabricDescription } from "@cclab/fabric";
import { describeValue } from "./options.js";

/** The far end of a cabled port, and the cable (index into `fabric.cables`) that joins them. */
export interface PortPeer {
  readonly kind: "host" | "switch";
  readonly index: number;
  /** The far end's port; always 0 for a host. */
  readonly port: number;
  readonly cable: number;
}

/**
 * A fabric's cables seen from each port: what routing, route checks and network assembly ask
 * ("where does port p of switch s lead?"). Built once per fabric by `wiringOf`, which also
 * validates the description, so everything that reads a wiring can trust it.
 */
export interface Wiring {
  readonly fabric: FabricDescription;
  /** `switchPorts[s][p]`: what port `p` of switch `s` is cabled to, or undefined if uncabled. */
  readonly switchPorts: readonly (readonly (PortPeer | undefined)[])[];
  /** `hostPeers[h]`: what host `h`'s only port is cabled to, or undefined if uncabled. */
  readonly hostPeers: readonly (PortPeer | undefined)[];
}

/**
 * Validates a fabric description and indexes its cables by port. Throws a `TypeError` or
 * `RangeError` naming the field (`cables[3].b.port`) for: missing or malformed parts, indices
 * or ports out of range, a port cabled twice, a cable from a port to itself, a rate that is not
 * finite and > 0 Gb/s, a latency that is not finite and ≥ 0 ns.
 */
export function wiringOf(fabric: FabricDescription): Wiring {
  if (typeof fabric !== "object" || fabric === null) {
    throw new TypeError(`fabric must be an object, got ${describeValue(fabric)}`);
  }
  const where = `fabric ${JSON.stringify(String(fabric.name))}`;
  for (const key of ["hosts", "switches", "cables"] as const) {
    if (!Array.isArray(fabric[key])) throw new TypeError(`${where}: "${key}" must be an array`);
  }
  const switchPorts = fabric.switches.map((sw, s) => {
    if (typeof sw?.name !== "string")
      throw new TypeError(`${where}: switches[${s}].name must be a string`);
    if (!Number.isInteger(sw.portCount) || sw.portCount < 1) {
      throw new RangeError(
        `${where}: switches[${s}].portCount must be an integer ≥ 1, got ${describeValue(sw.portCount)}`,
      );
    }
    if (sw.level !== undefined && (!Number.isInteger(sw.level) || sw.level < 0)) {
      throw new RangeError(
        `${where}: switches[${s}].level must be an integer ≥ 0, got ${describeValue(sw.level)}`,
      );
    }
    return new Array<PortPeer | undefined>(sw.portCount).fill(undefined);
  });
  fabric.hosts.forEach((h, i) => {
    if (typeof h?.name !== "string")
      throw new TypeError(`${where}: hosts[${i}].name must be a string`);
  });
  const hostPeers = new Array<PortPeer | undefined>(fabric.hosts.length).fill(undefined);
  const hostCable = new Int32Array(fabric.hosts.length).fill(-1);
  const switchCable = switchPorts.map((ports) => new Int32Array(ports.length).fill(-1));

  fabric.cables.forEach((cable, c) => {
    const at = `${where}: cables[${c}]`;
    if (typeof cable !== "object" || cable === null) throw new TypeError(`${at} must be an object`);
    if (
      typeof cable.rateGbps !== "number" ||
      !(cable.rateGbps > 0) ||
      !Number.isFinite(cable.rateGbps)
    ) {
      throw new RangeError(
        `${at}.rateGbps must be a finite rate > 0 Gb/s, got ${describeValue(cable.rateGbps)}`,
      );
    }
    if (
      typeof cable.latencyNs !== "number" ||
      !(cable.latencyNs >= 0) ||
      !Number.isFinite(cable.latencyNs)
    ) {
      throw new RangeError(
        `${at}.latencyNs must be a finite latency ≥ 0 ns, got ${describeValue(cable.latencyNs)}`,
      );
    }
    const ends = (["a", "b"] as const).map((side) => {
      const e = cable[side];
      const field = `${at}.${side}`;
      if (typeof e !== "object" || e === null)
        throw new TypeError(`${field} must be an endpoint object`);
      if (e.kind === "host") {
        if (!Number.isInteger(e.index) || e.index < 0 || e.index >= fabric.hosts.length) {
          throw new RangeError(
            `${field}.index must be a host index in 0..${fabric.hosts.length - 1}, got ${describeValue(e.index)}`,
          );
        }
        const used = hostCable[e.index]!;
        if (used >= 0) {
          throw new RangeError(
            `${field}: host "${fabric.hosts[e.index]!.name}" is already cabled by cables[${used}] (a host has one port)`,
          );
        }
        return { kind: "host" as const, index: e.index, port: 0 };
      }
      if (e.kind === "switch") {
        if (!Number.isInteger(e.index) || e.index < 0 || e.index >= fabric.switches.length) {
          throw new RangeError(
            `${field}.index must be a switch index in 0..${fabric.switches.length - 1}, got ${describeValue(e.index)}`,
          );
        }
        const sw = fabric.switches[e.index]!;
        if (!Number.isInteger(e.port) || e.port < 0 || e.port >= sw.portCount) {
          throw new RangeError(
            `${field}.port: switch "${sw.name}" has ports 0..${sw.portCount - 1}, got ${describeValue(e.port)}`,
          );
        }
        const used = switchCable[e.index]![e.port]!;
        if (used >= 0) {
          throw new RangeError(
            `${field}: port ${e.port} of switch "${sw.name}" is already cabled by cables[${used}]`,
          );
        }
        return { kind: "switch" as const, index: e.index, port: e.port };
      }
      throw new TypeError(
        `${field}.kind must be "host" or "switch", got ${describeValue((e as { kind: unknown }).kind)}`,
      );
    });
    const [a, b] = ends as [PortPeer, PortPeer];
    if (a.kind === b.kind && a.index === b.index && a.port === b.port) {
      throw new RangeError(`${at}: both ends are the same port`);
    }
    for (const [end, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const peer: PortPeer = { kind: other.kind, index: other.index, port: other.port, cable: c };
      if (end.kind === "host") {
        hostCable[end.index] = c;
        hostPeers[end.index] = peer;
      } else {
        switchCable[end.index]![end.port] = c;
        switchPorts[end.index]![end.port] = peer;
      }
    }
  });
  return { fabric, switchPorts, hostPeers };
}
