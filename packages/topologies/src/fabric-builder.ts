import type { Cable, Endpoint, FabricDescription, HostNode, SwitchNode } from "@cclab/fabric";
import { wiringOf } from "./wiring.js";

/** Rate and latency of one cable (both directions). */
export interface LinkParams {
  readonly rateGbps: number;
  readonly latencyNs: number;
}

export function hostEnd(index: number): Endpoint {
  return { kind: "host", index };
}

export function switchEnd(index: number, port: number): Endpoint {
  return { kind: "switch", index, port };
}

/**
 * Collects hosts, switches and cables with dense indices in the order they are added, then
 * hands back a validated `FabricDescription`. Builders lay out their wiring with it; `build`
 * runs `wiringOf` so a builder bug (a port cabled twice) fails loudly, not in a simulation.
 */
export class FabricBuilder {
  private readonly hosts: HostNode[] = [];
  private readonly switches: SwitchNode[] = [];
  private readonly cables: Cable[] = [];

  addHost(name: string): number {
    this.hosts.push({ name });
    return this.hosts.length - 1;
  }

  addSwitch(name: string, portCount: number, level?: number): number {
    this.switches.push(level === undefined ? { name, portCount } : { name, portCount, level });
    return this.switches.length - 1;
  }

  /** Adds a cable and returns its index in `fabric.cables`. */
  connect(a: Endpoint, b: Endpoint, link: LinkParams): number {
    this.cables.push({ a, b, rateGbps: link.rateGbps, latencyNs: link.latencyNs });
    return this.cables.length - 1;
  }

  build(name: string): FabricDescription {
    const fabric: FabricDescription = {
      name,
      hosts: this.hosts,
      switches: this.switches,
      cables: this.cables,
    };
    wiringOf(fabric);
    return fabric;
  }
}
