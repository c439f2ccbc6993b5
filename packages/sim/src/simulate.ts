import { readFileSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { type KindProfile, MAX_TIME_PS, psToUs, type TimePs, usToPs } from "@cclab/core-des";
import {
  bufferOverflowViolation,
  creditConservationViolation,
  IdealFct,
  type Network,
} from "@cclab/network";
import { BlockedSampler } from "./blocked-sampler.js";
import { type BuiltNetwork, buildNetwork } from "./build-network.js";
import { CcQueueSampler, type QueueSeriesInfo } from "./cc-queue-sampler.js";
import { CcSampler } from "./cc-sampler.js";
import { Collector } from "./collector.js";
import { EgressMeter } from "./egress-meter.js";
import { LinkThroughputSampler } from "./link-throughput-sampler.js";
import { type MemoryPart, typedArrayBytes } from "./memory-breakdown.js";
import { PacketTrace, TRACE_FILE, type TraceInfo } from "./packet-trace.js";
import { PortMap } from "./port-map.js";
import { issuesFromError } from "./scenario/device-errors.js";
import { ScenarioError } from "./scenario/issues.js";
import { type Resolved, type ResolvedScenario, resolveScenario } from "./scenario/resolve.js";
import { seriesFiles } from "./series.js";
import type { Summary } from "./summary.js";
import { buildSummary } from "./summary-build.js";
import type { TraceOptions } from "./trace-filter.js";
import { TrafficFeed } from "./traffic-feed.js";
import { tunedV8Flags, tuneV8ForSimulation } from "./v8-tuning.js";

/** Reported while a run goes on (the CLI turns it into its progress line). */
export interface Progress {
  readonly simulatedPs: TimePs;
  /** The run's end in simulated time, or null when it runs until every message completes. */
  readonly endPs: TimePs | null;
  /** Share done, 0..1: simulated time over duration, or messages completed over offered. */
  readonly fraction: number | null;
  readonly events: number;
  readonly wallMs: number;
  readonly eventsPerSecond: number;
  readonly etaSeconds: number | null;
}

export interface SimulateOptions {
  /** Directory that relative file names in the scenario (trace files) are read from. */
  readonly baseDir?: string;
  /** Where `plugins` resolve from, when not `baseDir` (`ResolveOptions.pluginDir`). */
  readonly pluginDir?: string;
  /** Called about every `progressIntervalMs` of wall time, and once at the end. */
  readonly onProgress?: (progress: Progress) => void;
  readonly progressIntervalMs?: number;
  /** Called once the scenario is valid and the network built, just before the run starts. */
  readonly onStart?: (scenario: ResolvedScenario) => void;
  /** Aborting stops the run between two slices; `simulate` then rejects with RunInterrupted. */
  readonly signal?: AbortSignal;
  /**
   * Time the event handlers per event kind (one event in `PROFILE_SAMPLE_EVERY` of each kind,
   * also exported here) and report it in `run.kindProfile`: which kinds of events the run's
   * time goes to. The events and results do not change.
   */
  readonly profileKinds?: boolean;
  /**
   * Raise V8's inlining budgets for this process before the run ({@link tuneV8ForSimulation}:
   * faster code, same results). Default true; false leaves V8's flags as they are.
   */
  readonly tuneV8?: boolean;
  /**
   * Record a packet trace (`trace.csv` in `files`, docs/model.md "Packet trace") of the events
   * these filters let through; `{}` records every event up to the default bound. Bad filters
   * reject with TraceOptionsError before the run. The other results do not change.
   */
  readonly trace?: TraceOptions;
  /**
   * Measure where the memory went at the end of the run (`run.memory`): a walk over the
   * network's state, after the run and outside its wall time. Default false.
   */
  readonly memoryBreakdown?: boolean;
}

/** Wall-clock facts of a run: kept out of `summary.json` so that file is reproducible. */
export interface RunInfo {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly buildMs: number;
  /** The run itself: from the first event to the last (what events/s is computed over). */
  readonly wallMs: number;
  /** Collecting the results after the run: completions, summary, series. */
  readonly summaryMs: number;
  readonly events: number;
  readonly eventsPerSecond: number;
  readonly peakRssBytes: number;
  readonly node: string;
  readonly platform: string;
  /** Wall time per event kind, when the run was asked for it (`profileKinds`). */
  readonly kindProfile?: readonly KindProfile[];
  /** V8 flags the simulator set in this process ({@link tuneV8ForSimulation}); [] if none. */
  readonly v8Flags: readonly string[];
  /** The packet trace's rows and whether its bound cut it, when the run recorded one. */
  readonly trace?: TraceInfo;
  /**
   * Where the memory went at the end of the run, when asked for (`memoryBreakdown`): typed-array
   * bytes per part of the network ({@link typedArrayBytes}) and the JS heap in use.
   */
  readonly memory?: { readonly parts: readonly MemoryPart[]; readonly heapUsedBytes: number };
  /**
   * The `cc-queues` series' queues and whether `metrics.maxQueueSeries` cut it, when the run
   * wrote one.
   */
  readonly queueSeries?: QueueSeriesInfo;
}

export interface SimulationResult {
  readonly scenario: ResolvedScenario;
  readonly summary: Summary;
  readonly run: RunInfo;
  /** CSV series and tables, by file name. */
  readonly files: ReadonlyMap<string, string>;
}

/**
 * The first invariant (docs/model.md, "Invariants") the network breaks now, by name, with the
 * place (link and its ends, or device, port and VL) and the figures; undefined if none.
 */
function invariantViolation(
  network: Network,
): { readonly invariant: string; readonly detail: string } | undefined {
  const credit = creditConservationViolation(network);
  if (credit !== undefined) return { invariant: "credit conservation", detail: credit };
  const buffer = bufferOverflowViolation(network);
  if (buffer !== undefined) return { invariant: "buffers within their size", detail: buffer };
  return undefined;
}

/** The run could not finish correctly: an invariant broke or the fabric deadlocked. */
export class RunFailure extends Error {
  override name = "RunFailure";
}

/** The run was stopped from outside (an aborted signal, Ctrl-C in the CLI). */
export class RunInterrupted extends Error {
  override name = "RunInterrupted";
}

/** Wall time each slice of the run aims at between progress reports and abort checks. */
const SLICE_TARGET_MS = 100;

/**
 * Runs a scenario: validates it (rejecting with {@link ScenarioError} before anything runs),
 * builds the network, feeds the traffic, runs, checks the invariants and collects the results.
 * The one entry point the CLI, the tests and the sweep workers use. `input` is a parsed
 * scenario file, or the result of {@link resolveScenario}.
 */
export async function simulate(
  input: unknown,
  options: SimulateOptions = {},
): Promise<SimulationResult> {
  if (options.tuneV8 !== false) tuneV8ForSimulation();
  const started = new Date();
  const t0 = performance.now();
  const resolved = isResolved(input)
    ? input
    : await resolveScenario(input, {
        ...(options.baseDir === undefined ? {} : { baseDir: options.baseDir }),
        ...(options.pluginDir === undefined ? {} : { pluginDir: options.pluginDir }),
      });
  // Only a run that asks for the egress series runs the meter's switch part.
  const egress = resolved.scenario.metrics.series.includes("egress-occupancy")
    ? new EgressMeter(
        usToPs(resolved.scenario.metrics.binUs),
        resolved.scenario.switch.outputBufferBytes > 0,
      )
    : undefined;
  // Only a run that traces runs the trace's hooks (docs/model.md, "Packet trace").
  const trace =
    options.trace === undefined
      ? undefined
      : new PacketTrace(options.trace, resolved.topology.fabric);
  const { network, queueValueLabels } = build(resolved, egress, trace);
  trace?.attach(network);
  const { scenario } = resolved;
  const baseDir = options.baseDir ?? process.cwd();
  const warmupPs = usToPs(scenario.run.warmupUs);
  const binPs = usToPs(scenario.metrics.binUs);
  const durationPs = scenario.run.durationUs === undefined ? null : usToPs(scenario.run.durationUs);
  const collector = new Collector(network, {
    warmupPs,
    binPs,
    maxFlowSeries: scenario.metrics.series.includes("flow-throughput")
      ? scenario.metrics.maxFlowSeries
      : 0,
    hostSeries: scenario.metrics.series.includes("host-throughput"),
    ideal: IdealFct.of(network),
    maxMessageRecords: scenario.metrics.messageTable ? scenario.metrics.maxMessageRecords : 0,
    perFlowStats: scenario.metrics.flowTable,
  });
  const feed = new TrafficFeed(
    scenario,
    network,
    collector,
    durationPs ?? Number.POSITIVE_INFINITY,
    (path) => readFileSync(resolvePath(baseDir, path), "utf8"),
  );
  const sampler = scenario.metrics.series.includes("flow-control")
    ? new BlockedSampler(network, binPs)
    : undefined;
  const ccSampler =
    scenario.metrics.series.includes("cc") &&
    (scenario.cc.switch !== null || scenario.cc.hosts.length > 0)
      ? new CcSampler(network, binPs)
      : undefined;
  // Only a run that asks for it, with a switch part that reports queues, samples them.
  const ccQueues = scenario.metrics.series.includes("cc-queues")
    ? CcQueueSampler.of(network, binPs, scenario.metrics.maxQueueSeries, queueValueLabels)
    : undefined;
  // Only a run that asks for it samples the links' byte counters (no per-packet work either way).
  const linkThroughput = scenario.metrics.series.includes("link-throughput")
    ? new LinkThroughputSampler(network, binPs)
    : undefined;
  const background =
    (sampler === undefined ? 0 : 1) +
    (linkThroughput === undefined ? 0 : 1) +
    (ccSampler === undefined ? 0 : 1) +
    (ccQueues === undefined ? 0 : 1);
  const untilComplete = scenario.run.untilComplete;
  if (untilComplete) {
    // Stop exactly when the last message completes, so the end time (and every time-weighted
    // figure) does not depend on how the run was sliced.
    collector.onCompletion = () => {
      if (feed.exhausted && collector.completedMessages === feed.offered) network.scheduler.stop();
    };
  }
  const buildMs = performance.now() - t0;
  options.onStart?.(scenario);

  const scheduler = network.scheduler;
  if (options.profileKinds === true) scheduler.profileKinds();
  const capPs = durationPs ?? MAX_TIME_PS;
  // run.checkInvariants: the end check below always runs; `periodic` adds one after every slice,
  // `every-event` one after every event (the scheduler's stopWhen, which stops the run there).
  const checks = scenario.run.checkInvariants;
  const broken = (seen: string) => {
    const v = invariantViolation(network);
    return v === undefined
      ? undefined
      : new RunFailure(`invariant broken: ${v.invariant}, seen ${seen}: ${v.detail}`);
  };
  let eventViolation = false;
  const runOptions: { untilPs: TimePs; stopWhen?: () => boolean } = { untilPs: 0 };
  if (checks === "every-event") {
    runOptions.stopWhen = () =>
      (eventViolation =
        creditConservationViolation(network) !== undefined ||
        bufferOverflowViolation(network) !== undefined);
  }
  const runStart = performance.now();
  let lastReport = runStart;
  let slicePs = usToPs(1);
  let status: Summary["status"] = "time-reached";
  const report = () => {
    const wallMs = performance.now() - runStart;
    const fraction = untilComplete
      ? feed.exhausted && feed.offered > 0
        ? collector.completedMessages / feed.offered
        : null
      : scheduler.nowPs / capPs;
    const eventsPerSecond = wallMs > 0 ? (scheduler.processed * 1000) / wallMs : 0;
    options.onProgress?.({
      simulatedPs: scheduler.nowPs,
      endPs: durationPs,
      fraction,
      events: scheduler.processed,
      wallMs,
      eventsPerSecond,
      etaSeconds:
        fraction !== null && fraction > 0 ? ((1 - fraction) / fraction) * (wallMs / 1000) : null,
    });
  };
  for (;;) {
    const sliceStart = performance.now();
    const target = Math.min(scheduler.nowPs + slicePs, capPs);
    runOptions.untilPs = target;
    const outcome = scheduler.run(runOptions);
    if (eventViolation) {
      throw broken(`after the event at ${psToUs(scheduler.nowPs)} µs`)!;
    }
    if (checks === "periodic") {
      const failure = broken(`at the end of the slice ending at ${psToUs(scheduler.nowPs)} µs`);
      if (failure !== undefined) throw failure;
    }
    if (outcome === "stopped") {
      status = "complete";
      break;
    }
    if (untilComplete && scheduler.pending <= background && feed.exhausted) {
      const left = feed.offered - collector.completedMessages;
      if (left > 0) {
        throw new RunFailure(
          `deadlock: ${left} of ${feed.offered} messages were never delivered and nothing is left to happen at ${psToUs(scheduler.nowPs)} µs (lossless delivery broken)`,
        );
      }
      status = "complete";
      break;
    }
    if (target === capPs) {
      status = untilComplete ? "incomplete" : "time-reached";
      break;
    }
    const elapsed = performance.now() - sliceStart;
    // Aim each slice at SLICE_TARGET_MS of wall time; never grow more than 4× at once.
    slicePs = Math.max(
      1000,
      Math.round(slicePs * Math.min(4, SLICE_TARGET_MS / Math.max(elapsed, 1))),
    );
    if (
      options.onProgress !== undefined &&
      performance.now() - lastReport >= (options.progressIntervalMs ?? 500)
    ) {
      lastReport = performance.now();
      report();
    }
    await new Promise((resolveTick) => setImmediate(resolveTick));
    if (options.signal?.aborted) {
      throw new RunInterrupted(`interrupted at ${psToUs(scheduler.nowPs)} µs of simulated time`);
    }
  }
  const endPs = scheduler.nowPs;
  sampler?.record(endPs);
  linkThroughput?.record(endPs);
  ccSampler?.record(endPs);
  ccQueues?.record(endPs);
  report();
  const failure = broken(`at the end of the run, ${psToUs(endPs)} µs`);
  if (failure !== undefined) throw failure;
  const wallMs = performance.now() - runStart;
  const summaryStart = performance.now();
  const portStats = network.switches.map((sw) => sw.portStats(endPs));
  const ports = new PortMap(network.topology.fabric);
  const summary = buildSummary({
    scenario,
    network,
    collector,
    feed,
    status,
    endPs,
    portStats,
    ports,
  });
  const files = seriesFiles({
    scenario,
    network,
    collector,
    sampler,
    linkThroughput,
    ccSampler,
    ccQueues,
    egress,
    endPs,
    binPs,
    portStats,
    ports,
  });
  if (trace !== undefined) files.set(TRACE_FILE, trace.csv());
  const summaryMs = performance.now() - summaryStart;
  return {
    scenario,
    summary,
    files,
    run: {
      startedAt: started.toISOString(),
      finishedAt: new Date().toISOString(),
      buildMs: Math.round(buildMs),
      wallMs: Math.round(wallMs),
      summaryMs: Math.round(summaryMs),
      events: scheduler.processed,
      eventsPerSecond: Math.round(wallMs > 0 ? (scheduler.processed * 1000) / wallMs : 0),
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      v8Flags: tunedV8Flags(),
      ...(options.profileKinds === true ? { kindProfile: scheduler.kindProfile() } : {}),
      ...(trace === undefined ? {} : { trace: trace.info() }),
      ...(options.memoryBreakdown === true
        ? {
            memory: {
              parts: typedArrayBytes([
                ["packets", [network.packets]],
                ["event queue", [network.scheduler]],
                ["switches", network.switches],
                ["hosts", network.hosts],
                ["links", [network.links, network.linkEnds]],
                ["traffic", [feed]],
                [
                  "metrics",
                  [collector, sampler, linkThroughput, ccSampler, ccQueues, egress, trace],
                ],
              ]),
              heapUsedBytes: process.memoryUsage().heapUsed,
            },
          }
        : {}),
      ...(ccQueues === undefined ? {} : { queueSeries: ccQueues.info() }),
    },
  };
}

/**
 * Builds the network of a resolved scenario (with `egress`, measuring its egress queues; with
 * `trace`, its hooks), turning device validation errors into issues.
 */
export function prepare(resolved: Resolved, egress?: EgressMeter, trace?: PacketTrace): Network {
  return build(resolved, egress, trace).network;
}

/** {@link prepare}, with what the switch parts declare for the results. */
function build(resolved: Resolved, egress?: EgressMeter, trace?: PacketTrace): BuiltNetwork {
  try {
    return buildNetwork(resolved, egress, trace);
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) {
      throw new ScenarioError(issuesFromError(error));
    }
    throw error;
  }
}

function isResolved(input: unknown): input is Resolved {
  return (
    typeof input === "object" &&
    input !== null &&
    "scenario" in input &&
    "topology" in input &&
    typeof (input as Resolved).topology?.fabric === "object"
  );
}
