import { createRng, type TimePs, usToPs } from "@cclab/core-des";
import type { Network } from "@cclab/network";
import {
  type BudgetStream,
  mergeSources,
  TRAFFIC_PATTERNS,
  type TrafficMessage,
  type TrafficSource,
} from "@cclab/traffic";
import { BudgetRelease } from "./budget-release.js";
import type { Collector } from "./collector.js";
import type { ResolvedScenario } from "./scenario/resolve.js";

/** Messages are handed to their hosts this far ahead of their arrival, so few events feed them. */
const HORIZON_PS = usToPs(10);

/**
 * Pulls the scenario's traffic lazily, in time order, and hands each message to its source
 * host shortly before it arrives: a long run never holds all its messages at once.
 */
export class TrafficFeed {
  /** Messages handed to hosts so far. */
  offered = 0;
  offeredBytes = 0;
  private readonly source: TrafficSource;
  private pending: TrafficMessage | undefined;
  private readonly kind: number;
  /** Patterns whose messages are released on demand (greedy nodes with budgets). */
  private readonly budget: BudgetRelease | undefined;
  /**
   * `host.slMapping: destination`: a message's SL is its destination host's index, whatever
   * its traffic gives, so each destination has a VL of its own (VOQnet).
   */
  private readonly slByDestination: boolean;

  constructor(
    scenario: ResolvedScenario,
    private readonly network: Network,
    private readonly collector: Collector,
    endPs: TimePs,
    readFile: (path: string) => string,
  ) {
    const { fabric } = network.topology;
    this.slByDestination = scenario.host.slMapping === "destination";
    const rng = createRng(scenario.seed);
    const sources: TrafficSource[] = [];
    const budgetStreams: BudgetStream[] = [];
    scenario.traffic.forEach(({ pattern, ...params }, i) => {
      const definition = TRAFFIC_PATTERNS[pattern]!;
      const ctx = {
        hostCount: fabric.hosts.length,
        slCount: scenario.switch.vlCount,
        hostRateGbps: (h: number) => network.hosts[h]!.uplinkRateGbps(),
        mtuBytes: network.hostConfig.mtuBytes,
        rng: rng.split(`traffic/${i}/${pattern}`),
        endPs,
        readFile,
      };
      const streams = definition.budgetStreams?.(params as never, ctx);
      if (streams !== undefined) {
        for (const stream of streams) budgetStreams.push(stream);
      } else {
        sources.push(withGroup(pattern, definition.create(params as never, ctx)));
      }
    });
    this.source = mergeSources(sources);
    this.budget =
      budgetStreams.length === 0
        ? undefined
        : new BudgetRelease(network, budgetStreams, (stream, dstHost, nowPs) =>
            this.handOver({
              srcHost: stream.srcHost,
              dstHost,
              bytes: stream.messageBytes,
              startPs: nowPs,
              group: stream.group,
            }),
          );
    this.pending = this.source.next();
    this.kind = network.scheduler.defineKind("traffic: messages due", () => this.feed());
    if (this.pending !== undefined) network.scheduler.schedule(this.pending.startPs, this.kind, 0);
  }

  /** Whether every message of the traffic has been handed to a host. */
  get exhausted(): boolean {
    return this.pending === undefined && (this.budget === undefined || this.budget.exhausted);
  }

  private feed(): void {
    const scheduler = this.network.scheduler;
    const until = scheduler.nowPs + HORIZON_PS;
    let m = this.pending;
    while (m !== undefined && m.startPs < until) {
      this.handOver(m);
      m = this.source.next();
    }
    this.pending = m;
    if (m !== undefined) scheduler.schedule(m.startPs, this.kind, 0);
  }

  // Counts a message as offered and queues it at its source host, with its SL by
  // `host.slMapping` (the collector counts the flow under the SL the host sends on); returns
  // its message id.
  private handOver(m: TrafficMessage): number {
    const sl = this.slByDestination ? m.dstHost : (m.sl ?? 0);
    this.collector.offered(m.srcHost, m.dstHost, sl, m.bytes, m.group ?? "default");
    this.offered++;
    this.offeredBytes += m.bytes;
    return this.network.addMessage(m.srcHost, {
      dstHost: m.dstHost,
      bytes: m.bytes,
      startPs: m.startPs,
      sl,
    });
  }
}

// A message without a group belongs to its pattern's group, so fairness is per pattern.
function withGroup(pattern: string, source: TrafficSource): TrafficSource {
  return {
    next() {
      const m = source.next();
      return m === undefined || m.group !== undefined ? m : { ...m, group: pattern };
    },
  };
}
