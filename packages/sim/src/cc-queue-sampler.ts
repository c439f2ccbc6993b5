import type { TimePs } from "@cclab/core-des";
import type { SwitchPart } from "@cclab/fabric";
import type { Network } from "@cclab/network";
import { atEveryBinEdge, dropRowsAt } from "./bin-edges.js";
import type { PortMap } from "./port-map.js";
import type { QueueValueLabelsJson } from "./queue-value-labels.js";

export const QUEUE_SERIES_FILE = "cc-queues.csv";

/** What the queue series holds, for `run.json` (`queueSeries`): a capped series says so. */
export interface QueueSeriesInfo {
  readonly file: string;
  /** Queues (switch, output port, VL) with rows in the file. */
  readonly queues: number;
  /** `metrics.maxQueueSeries`. */
  readonly maxQueues: number;
  /** True when queues beyond `maxQueues` were reported and left out. */
  readonly capped: boolean;
  /** Distinct queues the parts reported beyond the cap (no rows written for them). */
  readonly omittedQueues: number;
  /**
   * Names of the values of the file's variables, by variable then value, as the switch parts
   * declare them (contract 3.4's `queueValueLabels`; TCD: `state`): only for variables with
   * rows in the file, absent when none has names.
   */
  readonly valueLabels?: QueueValueLabelsJson;
}

/**
 * The `cc-queues` series: every switch part's per-egress-queue variables (contract 3.3's
 * `sampleQueues`, e.g. TCD's state and marks) read at each bin edge by a scheduled sample, as
 * {@link CcSampler} reads the sender parts' per-flow ones. Reading changes no state, so the run
 * is the same with or without it. Only the first `maxQueues` queues the parts report get rows
 * (in the order first reported), so a 648-node fabric cannot fill memory with them; the others
 * are counted. Made only in runs that ask for the series and have a part that reports queues.
 */
export class CcQueueSampler {
  /** Rows `[timePs, queueIndex, variableIndex, value]`. */
  private readonly rows: number[] = [];
  /** Per kept queue: `[switchIndex, outPort, vl]`. */
  private readonly queues: number[] = [];
  /** Queue key → index in {@link queues}. */
  private readonly queueIndex = new Map<number, number>();
  private readonly omitted = new Set<number>();
  private readonly variables: string[] = [];
  private readonly variableIndex = new Map<string, number>();
  /** The switches whose parts report queues, with their part. */
  private readonly reporting: readonly { readonly index: number; readonly part: SwitchPart }[];
  private readonly portStride: number;
  private readonly vlCount: number;

  /**
   * The sampler, or undefined when no switch part of `network` reports its queues.
   * `valueLabels`: the names the parts declare for their variables' values, for {@link info}.
   */
  static of(
    network: Network,
    binPs: TimePs,
    maxQueues: number,
    valueLabels: QueueValueLabelsJson = {},
  ): CcQueueSampler | undefined {
    const reporting = network.switches.flatMap((sw) => {
      const part = sw.ccPart;
      return part?.sampleQueues === undefined ? [] : [{ index: sw.index, part }];
    });
    return reporting.length === 0
      ? undefined
      : new CcQueueSampler(network, binPs, maxQueues, reporting, valueLabels);
  }

  private constructor(
    private readonly network: Network,
    binPs: TimePs,
    private readonly maxQueues: number,
    reporting: readonly { readonly index: number; readonly part: SwitchPart }[],
    private readonly valueLabels: QueueValueLabelsJson,
  ) {
    this.reporting = reporting;
    this.vlCount = network.switchConfig.vlCount;
    this.portStride = Math.max(1, ...network.topology.fabric.switches.map((s) => s.portCount));
    atEveryBinEdge(network.scheduler, binPs, "metrics: cc queue sample", (nowPs) =>
      this.record(nowPs),
    );
  }

  /**
   * Samples now (also called once at the end of the run; when that falls on a bin edge, its
   * sample replaces the edge's, so the last rows hold the run's final state).
   */
  record(nowPs: TimePs): void {
    dropRowsAt(this.rows, 4, nowPs);
    for (const { index: sw, part } of this.reporting) {
      part.sampleQueues!((outPort, vl, variable, value) => {
        const queue = this.queueOf(sw, outPort, vl);
        if (queue === undefined) return;
        let v = this.variableIndex.get(variable);
        if (v === undefined) {
          v = this.variables.length;
          this.variables.push(variable);
          this.variableIndex.set(variable, v);
        }
        this.rows.push(nowPs, queue, v, value);
      });
    }
  }

  /** The kept queue's index, admitting a new one while under the cap; undefined past it. */
  private queueOf(sw: number, outPort: number, vl: number): number | undefined {
    const key = (sw * this.portStride + outPort) * this.vlCount + vl;
    const known = this.queueIndex.get(key);
    if (known !== undefined) return known;
    if (this.queueIndex.size >= this.maxQueues) {
      this.omitted.add(key);
      return undefined;
    }
    const index = this.queueIndex.size;
    this.queueIndex.set(key, index);
    this.queues.push(sw, outPort, vl);
    return index;
  }

  info(): QueueSeriesInfo {
    // Names of variables the file has, in the order they first appear in it.
    const named = this.variables
      .filter((v) => Object.hasOwn(this.valueLabels, v))
      .map((v) => [v, this.valueLabels[v]!] as const);
    return {
      file: QUEUE_SERIES_FILE,
      queues: this.queueIndex.size,
      maxQueues: this.maxQueues,
      capped: this.omitted.size > 0,
      omittedQueues: this.omitted.size,
      ...(named.length === 0 ? {} : { valueLabels: Object.fromEntries(named) }),
    };
  }

  /** `cc-queues.csv`: one row per sample, queue and variable, port names as in ports.csv. */
  csv(ports: PortMap): string {
    const switches = this.network.switches;
    const lines = ["time_us,switch,port,port_name,vl,variable,value"];
    const prefix = Array.from({ length: this.queues.length / 3 }, (_, k) => {
      const [sw, port, vl] = this.queues.slice(3 * k, 3 * k + 3) as [number, number, number];
      return `${switches[sw]!.name},${port},${ports.switchPort(sw, port).name},${vl}`;
    });
    for (let i = 0; i < this.rows.length; i += 4) {
      lines.push(
        `${this.rows[i]! / 1e6},${prefix[this.rows[i + 1]!]},${this.variables[this.rows[i + 2]!]},${+this.rows[i + 3]!.toFixed(6)}`,
      );
    }
    return `${lines.join("\n")}\n`;
  }
}
