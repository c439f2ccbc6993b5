import type { Topology } from "@cclab/fabric";
import { FabricBuilder, hostEnd, switchEnd } from "../fabric-builder.js";
import {
  choiceOption,
  intOption,
  type LinkOptions,
  latencyOption,
  optionBag,
  rateOption,
} from "../options.js";
import { assertTableSize } from "../routing/candidate-lists.js";
import { ROUTING_NAMES, type RoutingName, routingByName } from "../routing/routing-by-name.js";

export interface KaryNTreeOptions extends LinkOptions {
  /** Arity: hosts per leaf switch, and down and up ports per switch (≥ 2). */
  readonly k: number;
  /** Number of switch levels (≥ 1). */
  readonly n: number;
  /** Default `"d-mod-k"`. */
  readonly routing?: RoutingName;
}

/**
 * The 4-ary n-trees of Paper VI (001 line 2333): "5 GByte/s (40 Gbps) of bandwidth and 6
 * nanoseconds of link propagation delay", switch-to-switch and host-to-switch alike.
 */
export const ECOCC_LINK_DEFAULTS = { rateGbps: 40, latencyNs: 6 } as const;

/** Most hosts a k-ary n-tree may have here (k^n), to catch typos before memory runs out. */
export const MAX_TREE_HOSTS = 65_536;

const OPTIONS = ["k", "n", "rateGbps", "latencyNs", "routing"] as const;

/**
 * A k-ary n-tree (Petrini & Vanneschi; thesis 001 line 246 and Table 1, lines 2335–2340): k^n
 * hosts and n levels of k^(n−1) switches, n·k^(n−1) switches in all, each with 2k ports:
 * ports 0 … k−1 down, k … 2k−1 up. The top level's up ports stay uncabled (the 8-port
 * switches of Paper VI's 4-ary trees, line 2342, have them too).
 *
 * Layout (level 0 = leaves, as `SwitchNode.level`): host `h` sits on leaf `floor(h / k)`,
 * port `h mod k`. Switch `S{l}.{a}` (index `l·k^(n−1) + a`) on level `l` has `a = g·k^l + r`:
 * it serves the k^(l+1) hosts with `floor(h / k^(l+1)) = g`, and `r < k^l` tells the
 * replicas apart. Its up port `k + u` goes to switch `S{l+1}.{floor(g/k)·k^(l+1) + r + u·k^l}`,
 * arriving on that switch's down port `g mod k`. In digits, two switches on adjacent levels
 * are cabled when their labels differ only in digit `l`: Petrini's butterfly wiring.
 *
 * Default routing D-mod-k: up port `k + digit_l(d)` on level `l`, so each destination has
 * one root and each down link carries one destination (001 line 1125).
 */
export function karyNTree(opts: KaryNTreeOptions): Topology {
  const fn = "karyNTree";
  const bag = optionBag(fn, opts, OPTIONS);
  const k = intOption(fn, "k", bag.k, { min: 2, max: MAX_TREE_HOSTS });
  const n = intOption(fn, "n", bag.n, { min: 1, max: 16 });
  if (k ** n > MAX_TREE_HOSTS) {
    throw new RangeError(
      `${fn}: options "k" and "n" give k^n = ${k ** n} hosts, above the limit of ${MAX_TREE_HOSTS}`,
    );
  }
  assertTableSize(fn, n * k ** (n - 1), k ** n);
  const link = {
    rateGbps: rateOption(fn, "rateGbps", bag.rateGbps, ECOCC_LINK_DEFAULTS.rateGbps),
    latencyNs: latencyOption(fn, "latencyNs", bag.latencyNs, ECOCC_LINK_DEFAULTS.latencyNs),
  };
  const routing = choiceOption(fn, "routing", bag.routing, ROUTING_NAMES, "d-mod-k");

  const perLevel = k ** (n - 1);
  const b = new FabricBuilder();
  for (let l = 0; l < n; l++) {
    for (let a = 0; a < perLevel; a++) b.addSwitch(`S${l}.${a}`, 2 * k, l);
  }
  for (let h = 0; h < k ** n; h++) {
    b.connect(hostEnd(b.addHost(`H${h}`)), switchEnd(Math.floor(h / k), h % k), link);
  }
  for (let l = 0; l + 1 < n; l++) {
    const replicas = k ** l;
    for (let a = 0; a < perLevel; a++) {
      const g = Math.floor(a / replicas);
      const r = a % replicas;
      for (let u = 0; u < k; u++) {
        const parent = Math.floor(g / k) * replicas * k + r + u * replicas;
        b.connect(
          switchEnd(l * perLevel + a, k + u),
          switchEnd((l + 1) * perLevel + parent, g % k),
          link,
        );
      }
    }
  }
  const fabric = b.build(`${k}-ary ${n}-tree`);
  return { fabric, routing: routingByName(routing, fabric) };
}
