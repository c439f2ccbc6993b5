import type { Topology } from "@cclab/fabric";
import { FabricBuilder, hostEnd, switchEnd } from "../fabric-builder.js";
import { type LinkOptions, latencyOption, optionBag, rateOption } from "../options.js";
import { shortestPath } from "../routing/shortest-path.js";

export type SrpHostName = "S0" | "S1" | "S2" | "S3" | "S4" | "S5" | "D0" | "D1";
export type SrpLinkName = "L0" | "L1" | "L2";

export type SrpCongestionNetworkOptions = LinkOptions;

export interface SrpCongestionNetwork extends Topology {
  /** Host index by the paper's name: `hostIndex.S0`, …, `hostIndex.D1`. */
  readonly hostIndex: Readonly<Record<SrpHostName, number>>;
  /**
   * Cable index (into `fabric.cables`) by the paper's link name. The paper's link is the
   * `a → b` direction of the cable: L0 router R0 → R1, L1 R1 → D0, L2 R1 → D1.
   */
  readonly cableIndex: Readonly<Record<SrpLinkName, number>>;
}

/** SRP paper (000 line 92): "Each network channel … has a capacity of 10 Gb/s and a latency of 32ns". */
export const SRP_LINK_DEFAULTS = { rateGbps: 10, latencyNs: 32 } as const;

const OPTIONS = ["rateGbps", "latencyNs"] as const;

/**
 * The simple congestion network of the SRP paper, Fig. 1(a) (000 lines 38 and 125): S1..S5
 * send to the hot spot D1, S0 sends to D0 and shares link L0 with S1 and S2; L2 is the link to
 * D1; L0 and L1 carry S0's traffic.
 *
 * The figure did not survive the text conversion, so this is the smallest wiring the prose
 * allows (a choice, not the figure):
 *
 * ```
 *   S0 ─┐                  ┌─ S3, S4, S5
 *   S1 ─┤ R0 ──── L0 ────▶ R1 ── L1 ──▶ D0
 *   S2 ─┘                  └─ L2 ──▶ D1
 * ```
 *
 * - S0, S1, S2 share router R0, whose only way out is L0 (line 38: "S0 shares link L0 with
 *   S1 and S2"); so S0's traffic to D0 crosses L0.
 * - S3, S4, S5 each have their own input port at R1, the router that drives L2: with
 *   per-input-port round-robin, the L0 input (S1 + S2) and S3, S4, S5 each get 1/4 of L2, so
 *   S1 and S2 get "only half that of traffic from S3 through S5" (line 38).
 * - L1 is the link on to D0 (line 38: "links L0 and L1 have spare bandwidth to support traffic
 *   from S0"), and L2, like it, the last link to its destination (D1).
 *
 * Ports: R0 0..2 = S0..S2, 3 = L0; R1 0 = L0, 1..3 = S3..S5, 4 = L1 (D0), 5 = L2 (D1).
 * Host indices S0..S5 = 0..5, D0 = 6, D1 = 7. Routing: the only path (`shortestPath`).
 */
export function srpCongestionNetwork(opts?: SrpCongestionNetworkOptions): SrpCongestionNetwork {
  const fn = "srpCongestionNetwork";
  const bag = optionBag(fn, opts, OPTIONS);
  const link = {
    rateGbps: rateOption(fn, "rateGbps", bag.rateGbps, SRP_LINK_DEFAULTS.rateGbps),
    latencyNs: latencyOption(fn, "latencyNs", bag.latencyNs, SRP_LINK_DEFAULTS.latencyNs),
  };
  const b = new FabricBuilder();
  const names: SrpHostName[] = ["S0", "S1", "S2", "S3", "S4", "S5", "D0", "D1"];
  const host = Object.fromEntries(names.map((n) => [n, b.addHost(n)])) as Record<
    SrpHostName,
    number
  >;
  const r0 = b.addSwitch("R0", 4);
  const r1 = b.addSwitch("R1", 6);
  b.connect(hostEnd(host.S0), switchEnd(r0, 0), link);
  b.connect(hostEnd(host.S1), switchEnd(r0, 1), link);
  b.connect(hostEnd(host.S2), switchEnd(r0, 2), link);
  const L0 = b.connect(switchEnd(r0, 3), switchEnd(r1, 0), link);
  b.connect(hostEnd(host.S3), switchEnd(r1, 1), link);
  b.connect(hostEnd(host.S4), switchEnd(r1, 2), link);
  b.connect(hostEnd(host.S5), switchEnd(r1, 3), link);
  const L1 = b.connect(switchEnd(r1, 4), hostEnd(host.D0), link);
  const L2 = b.connect(switchEnd(r1, 5), hostEnd(host.D1), link);
  const fabric = b.build("SRP congestion network (Fig. 1)");
  return { fabric, routing: shortestPath(fabric), hostIndex: host, cableIndex: { L0, L1, L2 } };
}
