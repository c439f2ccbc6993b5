import type { Topology } from "@cclab/fabric";
import { FabricBuilder, hostEnd, switchEnd } from "../fabric-builder.js";
import {
  GENERIC_LINK_DEFAULTS,
  intOption,
  type LinkOptions,
  latencyOption,
  namesOption,
  optionBag,
  rateOption,
} from "../options.js";
import { shortestPath } from "../routing/shortest-path.js";

export interface SingleSwitchOptions extends LinkOptions {
  /** Number of hosts, 1 … 4096; the switch gets one port per host. */
  readonly hosts: number;
  /** Host names in index order; default `H0`, `H1`, … */
  readonly hostNames?: readonly string[];
}

const OPTIONS = ["hosts", "hostNames", "rateGbps", "latencyNs"] as const;

/** Largest switch the builder makes; far above any real radix, small enough to catch typos. */
const MAX_PORTS = 4096;

/**
 * `hosts` hosts on one switch `S0`, host `i` on port `i`. Paper II's type-I fairness setup is
 * this with seven hosts named H1–H7 (001 line 1037: "a switch connecting seven end nodes"):
 * `singleSwitch({ hosts: 7, hostNames: ["H1", …, "H7"], rateGbps: 16 })`.
 */
export function singleSwitch(opts: SingleSwitchOptions): Topology {
  const fn = "singleSwitch";
  const bag = optionBag(fn, opts, OPTIONS);
  const hosts = intOption(fn, "hosts", bag.hosts, { min: 1, max: MAX_PORTS });
  const names = namesOption(fn, "hostNames", bag.hostNames, hosts, (i) => `H${i}`);
  const link = {
    rateGbps: rateOption(fn, "rateGbps", bag.rateGbps, GENERIC_LINK_DEFAULTS.rateGbps),
    latencyNs: latencyOption(fn, "latencyNs", bag.latencyNs, GENERIC_LINK_DEFAULTS.latencyNs),
  };
  const b = new FabricBuilder();
  const sw = b.addSwitch("S0", hosts);
  for (let i = 0; i < hosts; i++) b.connect(hostEnd(b.addHost(names[i]!)), switchEnd(sw, i), link);
  const fabric = b.build(`single switch, ${hosts} hosts`);
  return { fabric, routing: shortestPath(fabric) };
}
