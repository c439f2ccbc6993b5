import type { TimePs } from "@cclab/core-des";
import type { PortFlowState } from "@cclab/fabric";
import type { Network } from "@cclab/network";
import { atEveryBinEdge, totalsPerBin } from "./bin-edges.js";
import type { PortEntry, PortMap } from "./port-map.js";

interface Watched {
  readonly device: string;
  readonly port: number;
  readonly state: PortFlowState;
  /** The port's entry in the port map (docs/model.md, "Port names"). */
  readonly entry: (names: PortMap) => PortEntry;
}

/**
 * The `flow-control` series: per transmitting port and VL, the fraction of each bin it had a
 * packet ready but was held by flow control (paused, or out of credits). A scheduled sample at
 * every bin edge reads the ports' cumulative blocked time; sampling changes no state, so it
 * does not change the run.
 */
export class BlockedSampler {
  private readonly ports: Watched[] = [];
  private readonly last: Float64Array;
  /** Rows `[binStartPs, portIndex, vl, blockedPs]` for bins with blocked time. */
  readonly rows: number[] = [];
  private readonly vlCount: number;

  constructor(
    network: Network,
    private readonly binPs: TimePs,
  ) {
    for (const sw of network.switches) {
      sw.outFlow.forEach((state, port) => {
        this.ports.push({
          device: sw.name,
          port,
          state,
          entry: (names) => names.switchPort(sw.index, port),
        });
      });
    }
    for (const host of network.hosts) {
      this.ports.push({
        device: host.name,
        port: 0,
        state: host.uplinkFlow,
        entry: (names) => names.hostPort(host.index),
      });
    }
    this.vlCount = network.switchConfig.vlCount;
    this.last = new Float64Array(this.ports.length * this.vlCount);
    atEveryBinEdge(network.scheduler, binPs, "metrics: blocked-time sample", (nowPs) =>
      this.record(nowPs),
    );
  }

  /** Records the bin that ends at `nowPs` (also called once at the end of the run). */
  record(nowPs: TimePs): void {
    const binStart = Math.floor((nowPs - 1) / this.binPs) * this.binPs;
    const v = this.vlCount;
    for (let p = 0; p < this.ports.length; p++) {
      const state = this.ports[p]!.state;
      for (let vl = 0; vl < v; vl++) {
        const total = state.blockedPsUntil(vl, nowPs);
        const delta = total - this.last[p * v + vl]!;
        if (delta > 0) this.rows.push(binStart, p, vl, delta);
        this.last[p * v + vl] = total;
      }
    }
  }

  /**
   * `flow-control.csv`: every bin up to `endPs` of each port and VL that was ever blocked,
   * zeros included, so a plot never draws blocking across bins that had none.
   */
  csv(endPs: TimePs, names: PortMap): string {
    const v = this.vlCount;
    const bins = Math.ceil(endPs / this.binPs);
    const rows = this.rows;
    const blocked = totalsPerBin(rows, 4, this.binPs, bins, (i) => rows[i + 1]! * v + rows[i + 2]!);
    const keys = [...blocked.keys()].sort((a, b) => a - b);
    const lines = ["bin_start_us,device,port,vl,blocked_fraction,port_name,peer"];
    for (let bin = 0; bin < bins; bin++) {
      // The last bin may be shorter than the others: its fraction is of its own width.
      const width = Math.min(this.binPs, endPs - bin * this.binPs);
      for (const key of keys) {
        const watched = this.ports[Math.floor(key / v)]!;
        const { name, peer } = watched.entry(names);
        const fraction = blocked.get(key)![bin]! / width;
        lines.push(
          `${(bin * this.binPs) / 1e6},${watched.device},${watched.port},${key % v},${+fraction.toFixed(6)},${name},${peer}`,
        );
      }
    }
    return `${lines.join("\n")}\n`;
  }
}
