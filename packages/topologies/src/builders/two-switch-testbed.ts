import type { Topology } from "@cclab/fabric";
import { FabricBuilder, hostEnd, switchEnd } from "../fabric-builder.js";
import { type LinkOptions, latencyOption, optionBag, rateOption } from "../options.js";
import { shortestPath } from "../routing/shortest-path.js";

export type TestbedHostName = "H1" | "H2" | "H3" | "H4" | "H5" | "H6" | "H7";

export interface TwoSwitchTestbedOptions extends LinkOptions {
  /** Data rate of the S1–S2 cable, in Gb/s; default twice `rateGbps`. */
  readonly interSwitchRateGbps?: number;
  /** Latency of the S1–S2 cable, in ns; default `latencyNs`. */
  readonly interSwitchLatencyNs?: number;
}

export interface TwoSwitchTestbed extends Topology {
  /** Host index by the thesis's name: `hostIndex.H1`, …, `hostIndex.H7` (= 0 … 6). */
  readonly hostIndex: Readonly<Record<TestbedHostName, number>>;
  /** Index in `fabric.cables` of the S1–S2 cable (`a` = S1). */
  readonly interSwitchCable: number;
}

/**
 * Link defaults of the thesis testbed (001): host links of 20 Gbit/s (line 848), which is
 * 4x DDR signalling; with 8b/10b coding that is 16 Gb/s of data (the same arithmetic as lines
 * 862 and 1291–1295), and `Cable.rateGbps` is a data rate. The thesis gives no cable latency;
 * 5 ns is one metre of cable at the 5 ns/m of the InfiniBand specification (line 2333).
 */
export const GRAN_LINK_DEFAULTS = { rateGbps: 16, latencyNs: 5 } as const;

const OPTIONS = ["rateGbps", "latencyNs", "interSwitchRateGbps", "interSwitchLatencyNs"] as const;

/**
 * The two-switch testbed of Papers I–III of the Gran thesis (001 lines 848, 1109–1121 and
 * 1303–1354): H1–H3 on switch S1, H4–H7 on switch S2, one S1–S2 cable with "twice the
 * capacity of the other links" (line 1109; line 1338; 40 vs 20 Gbit/s at line 848).
 *
 * Ports: S1 0..2 = H1..H3, 3 = S2; S2 0 = S1, 1..4 = H4..H7. Routing: the only path.
 */
export function twoSwitchTestbed(opts?: TwoSwitchTestbedOptions): TwoSwitchTestbed {
  const fn = "twoSwitchTestbed";
  const bag = optionBag(fn, opts, OPTIONS);
  const link = {
    rateGbps: rateOption(fn, "rateGbps", bag.rateGbps, GRAN_LINK_DEFAULTS.rateGbps),
    latencyNs: latencyOption(fn, "latencyNs", bag.latencyNs, GRAN_LINK_DEFAULTS.latencyNs),
  };
  const trunk = {
    rateGbps: rateOption(fn, "interSwitchRateGbps", bag.interSwitchRateGbps, 2 * link.rateGbps),
    latencyNs: latencyOption(fn, "interSwitchLatencyNs", bag.interSwitchLatencyNs, link.latencyNs),
  };
  const b = new FabricBuilder();
  const names: TestbedHostName[] = ["H1", "H2", "H3", "H4", "H5", "H6", "H7"];
  const host = Object.fromEntries(names.map((n) => [n, b.addHost(n)])) as Record<
    TestbedHostName,
    number
  >;
  const s1 = b.addSwitch("S1", 4);
  const s2 = b.addSwitch("S2", 5);
  (["H1", "H2", "H3"] as const).forEach((n, i) => {
    b.connect(hostEnd(host[n]), switchEnd(s1, i), link);
  });
  const interSwitchCable = b.connect(switchEnd(s1, 3), switchEnd(s2, 0), trunk);
  (["H4", "H5", "H6", "H7"] as const).forEach((n, i) => {
    b.connect(hostEnd(host[n]), switchEnd(s2, 1 + i), link);
  });
  const fabric = b.build("two-switch testbed (Gran Papers I–III)");
  return { fabric, routing: shortestPath(fabric), hostIndex: host, interSwitchCable };
}
