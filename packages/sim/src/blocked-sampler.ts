import type { TimePs } from "@cclab/core-des";
import type { PortFlowState } from "@cclab/fabric";
import type { Network } from "@cclab/network";

interface Watched {
  readonly device: string;
  readonly port: number;
  readonly state: PortFlowState;
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
  private readonly kind: number;

  constructor(
    private readonly network: Network,
    private readonly binPs: TimePs,
  ) {
    for (const sw of network.switches) {
      sw.outFlow.forEach((state, port) => {
        this.ports.push({ device: sw.name, port, state });
      });
    }
    for (const host of network.hosts) {
      this.ports.push({ device: host.name, port: 0, state: host.uplinkFlow });
    }
    this.vlCount = network.switchConfig.vlCount;
    this.last = new Float64Array(this.ports.length * this.vlCount);
    this.kind = network.scheduler.defineKind("metrics: blocked-time sample", () => this.sample());
    network.scheduler.schedule(binPs, this.kind, 0);
  }

  private sample(): void {
    const scheduler = this.network.scheduler;
    const now = scheduler.nowPs;
    this.record(now);
    scheduler.schedule(now + this.binPs, this.kind, 0);
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

  /** `flow-control.csv`. */
  csv(): string {
    const lines = ["bin_start_us,device,port,vl,blocked_fraction"];
    for (let i = 0; i < this.rows.length; i += 4) {
      const port = this.ports[this.rows[i + 1]!]!;
      const fraction = this.rows[i + 3]! / this.binPs;
      lines.push(
        `${this.rows[i]! / 1e6},${port.device},${port.port},${this.rows[i + 2]},${+fraction.toFixed(6)}`,
      );
    }
    return `${lines.join("\n")}\n`;
  }
}
