import type { Topology } from "@cclab/fabric";
import { FabricBuilder, hostEnd, switchEnd } from "../fabric-builder.js";
import {
  describeValue,
  GENERIC_LINK_DEFAULTS,
  intOption,
  type LinkOptions,
  latencyOption,
  optionBag,
  rateOption,
} from "../options.js";
import { assertTableSize } from "../routing/candidate-lists.js";
import { shortestPath } from "../routing/shortest-path.js";

export interface ParkingLotOptions extends LinkOptions {
  /** Number of switches in the chain, 1 … 1024. */
  readonly switches: number;
  /** Hosts on each switch (one number for all, or one per switch), 0 … 1024 each. */
  readonly hostsPerSwitch: number | readonly number[];
  /** Data rate of the switch-to-switch cables, in Gb/s; default `rateGbps`. */
  readonly interSwitchRateGbps?: number;
  /** Latency of the switch-to-switch cables, in ns; default `latencyNs`. */
  readonly interSwitchLatencyNs?: number;
}

const OPTIONS = [
  "switches",
  "hostsPerSwitch",
  "rateGbps",
  "latencyNs",
  "interSwitchRateGbps",
  "interSwitchLatencyNs",
] as const;

const MAX_SWITCHES = 1024;
const MAX_HOSTS_PER_SWITCH = 1024;

/**
 * A parking lot: switches `S0 — S1 — … — S(n−1)` in a chain, with hosts on each. Flows that
 * join the chain at different switches meet at per-input-port round-robin arbiters, which is
 * the parking-lot unfairness of 001 lines 1109–1115.
 *
 * Layout: hosts are numbered switch by switch (`H0`, `H1`, … in index order), so with `h`
 * hosts per switch host `i` sits on switch `floor(i / h)`. On switch `s` with `h_s` hosts,
 * ports `0 … h_s − 1` are its hosts, port `h_s` leads to `S(s−1)` and port `h_s + 1` to
 * `S(s+1)`; every switch has `h_s + 2` ports, so at the two ends of the chain one of these is
 * left uncabled. At least one switch must have a host.
 * Routing: the only path (`shortestPath`).
 */
export function parkingLot(opts: ParkingLotOptions): Topology {
  const fn = "parkingLot";
  const bag = optionBag(fn, opts, OPTIONS);
  const switches = intOption(fn, "switches", bag.switches, { min: 1, max: MAX_SWITCHES });
  const perSwitch = hostsPerSwitchOption(fn, bag.hostsPerSwitch, switches);
  const link = {
    rateGbps: rateOption(fn, "rateGbps", bag.rateGbps, GENERIC_LINK_DEFAULTS.rateGbps),
    latencyNs: latencyOption(fn, "latencyNs", bag.latencyNs, GENERIC_LINK_DEFAULTS.latencyNs),
  };
  const trunk = {
    rateGbps: rateOption(fn, "interSwitchRateGbps", bag.interSwitchRateGbps, link.rateGbps),
    latencyNs: latencyOption(fn, "interSwitchLatencyNs", bag.interSwitchLatencyNs, link.latencyNs),
  };
  if (perSwitch.every((h) => h === 0)) {
    throw new RangeError(
      `${fn}: option "hostsPerSwitch" must put at least one host on some switch`,
    );
  }
  assertTableSize(
    fn,
    switches,
    perSwitch.reduce((a, h) => a + h, 0),
  );
  const b = new FabricBuilder();
  const ids = perSwitch.map((h, s) => b.addSwitch(`S${s}`, h + 2));
  let hostNumber = 0;
  perSwitch.forEach((h, s) => {
    for (let p = 0; p < h; p++)
      b.connect(hostEnd(b.addHost(`H${hostNumber++}`)), switchEnd(ids[s]!, p), link);
  });
  for (let s = 0; s + 1 < switches; s++) {
    b.connect(
      switchEnd(ids[s]!, perSwitch[s]! + 1),
      switchEnd(ids[s + 1]!, perSwitch[s + 1]!),
      trunk,
    );
  }
  const fabric = b.build(`parking lot, ${switches} switches`);
  return { fabric, routing: shortestPath(fabric) };
}

function hostsPerSwitchOption(fn: string, value: unknown, switches: number): number[] {
  if (Array.isArray(value)) {
    if (value.length !== switches) {
      throw new RangeError(
        `${fn}: option "hostsPerSwitch" as an array needs one count per switch (${switches}), got ${value.length}`,
      );
    }
    return value.map((h: unknown, i) =>
      intOption(fn, `hostsPerSwitch[${i}]`, h, { min: 0, max: MAX_HOSTS_PER_SWITCH }),
    );
  }
  if (value === undefined || typeof value === "number") {
    const h = intOption(fn, "hostsPerSwitch", value, { min: 0, max: MAX_HOSTS_PER_SWITCH });
    return new Array<number>(switches).fill(h);
  }
  throw new TypeError(
    `${fn}: option "hostsPerSwitch" must be a number or an array of numbers, got ${describeValue(value)}`,
  );
}
