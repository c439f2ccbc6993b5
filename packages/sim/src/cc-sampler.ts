import type { TimePs } from "@cclab/core-des";
import type { Network } from "@cclab/network";
import { atEveryBinEdge, dropRowsAt } from "./bin-edges.js";

/**
 * The `cc` series: every sender part's per-flow variables (e.g. InfiniBand's CCTI and the
 * rate it allows) read at each bin edge by a scheduled sample. Reading changes no state, so
 * the run is the same with or without it.
 */
export class CcSampler {
  /** Rows `[timePs, flowId, variableIndex, value]`. */
  private readonly rows: number[] = [];
  private readonly variables: string[] = [];
  private readonly variableIndex = new Map<string, number>();

  constructor(
    private readonly network: Network,
    binPs: TimePs,
  ) {
    atEveryBinEdge(network.scheduler, binPs, "metrics: cc sample", (nowPs) => this.record(nowPs));
  }

  /**
   * Samples now (also called once at the end of the run; when that falls on a bin edge, its
   * sample replaces the edge's, so the last rows hold the run's final state).
   */
  record(nowPs: TimePs): void {
    dropRowsAt(this.rows, 4, nowPs);
    this.network.sampleCcFlows((flowId, variable, value) => {
      let index = this.variableIndex.get(variable);
      if (index === undefined) {
        index = this.variables.length;
        this.variables.push(variable);
        this.variableIndex.set(variable, index);
      }
      this.rows.push(nowPs, flowId, index, value);
    });
  }

  /** `cc-flows.csv`: one row per sample, flow and variable. */
  csv(flowName: (flowId: number) => { src: string; dst: string }): string {
    const lines = ["time_us,flow,src,dst,variable,value"];
    for (let i = 0; i < this.rows.length; i += 4) {
      const flow = this.rows[i + 1]!;
      const { src, dst } = flowName(flow);
      lines.push(
        `${this.rows[i]! / 1e6},${flow},${src},${dst},${this.variables[this.rows[i + 2]!]},${+this.rows[i + 3]!.toFixed(6)}`,
      );
    }
    return `${lines.join("\n")}\n`;
  }
}
