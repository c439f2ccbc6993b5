import { psToUs, type TimePs } from "@cclab/core-des";
import type { HostEgressStats } from "@cclab/fabric-hca";
import type { SwitchPortStats } from "@cclab/fabric-switch";
import type { Network } from "@cclab/network";
import { type Collector, type FlowRecord, jainOrNull, percentilesOf, round } from "./collector.js";
import type { PortMap } from "./port-map.js";
import type { ResolvedScenario } from "./scenario/resolve.js";
import type { Summary } from "./summary.js";
import type { TrafficFeed } from "./traffic-feed.js";

const PS_TO_US = 1e-6;
const PS_TO_NS = 1e-3;

export interface SummaryInputs {
  readonly scenario: ResolvedScenario;
  readonly network: Network;
  readonly collector: Collector;
  readonly feed: TrafficFeed;
  readonly status: Summary["status"];
  readonly endPs: TimePs;
  /** Per switch, its ports' statistics at `endPs` (computed once for the summary and the CSVs). */
  readonly portStats: readonly (readonly SwitchPortStats[])[];
  /** The fabric's port names (docs/model.md, "Port names"), built once for the summary and the CSVs. */
  readonly ports: PortMap;
}

/** `summary.json` from a finished run (see {@link summarySchema} for every field's meaning). */
export function buildSummary(inputs: SummaryInputs): Summary {
  const { scenario, network, collector, feed, status, endPs, portStats, ports } = inputs;
  const warmupPs = Math.min(collector.warmupPs, endPs);
  const hostName = (h: number) => network.topology.fabric.hosts[h]!.name;
  const flows = [...collector.flows].sort((a, b) => a.id - b.id);
  const rates = flows.map((f) => round(collector.windowGbps(f, endPs)));
  const flowRows = scenario.metrics.flowTable ? flowTable(collector, flows, rates, hostName) : [];
  const groups = groupRows(flows, rates);

  // Completion times and slowdowns: exact nearest-rank percentiles (docs/model.md, "What is
  // measured") up to 4 M messages, the histogram's bounded relative error beyond.
  const lastCompletionPs = collector.lastCompletionPs;
  const fctPercentiles = percentilesOf(collector.mctPs, PS_TO_US);
  const slowdownPercentiles = percentilesOf(collector.slowdown, 1);

  let pauseFrames = 0;
  let resumeFrames = 0;
  for (const link of network.links.links) {
    pauseFrames += link.pauseFramesSent;
    resumeFrames += link.resumeFramesSent;
  }
  let dataDrops = 0;
  for (const sw of network.switches) dataDrops += sw.droppedPackets;
  const windowPs = endPs - warmupPs;

  return {
    schemaVersion: 2,
    scenario: scenario.name,
    seed: scenario.seed,
    status,
    simulatedUs: round(psToUs(endPs)),
    windowUs: { from: round(psToUs(warmupPs)), to: round(psToUs(endPs)) },
    eventsProcessed: network.scheduler.processed,
    totals: {
      messages: feed.offered,
      completedMessages: collector.completedMessages,
      offeredBytes: feed.offeredBytes,
      deliveredBytes: flows.reduce((s, f) => s + f.deliveredBytes, 0),
      windowGbps:
        windowPs > 0 ? round((flows.reduce((s, f) => s + f.windowBytes, 0) * 8000) / windowPs) : 0,
      dataDrops,
      pauseFrames,
      resumeFrames,
      marks: { ...collector.marks },
      controlPackets: Object.fromEntries([...collector.controlPackets()].sort()),
      ccCounters: Object.fromEntries(
        Object.entries(network.ccCounters()).sort(([a], [b]) => (a < b ? -1 : 1)),
      ),
    },
    fct:
      fctPercentiles === null || slowdownPercentiles === null
        ? null
        : {
            completionUs: fctPercentiles,
            slowdown: slowdownPercentiles,
            lastCompletionUs: round(lastCompletionPs * PS_TO_US),
          },
    latencyNs: {
      total: percentilesOf(collector.totalLatencyPs, PS_TO_NS),
      network: percentilesOf(collector.networkLatencyPs, PS_TO_NS),
    },
    groups,
    hosts: hostRates(network, flows, windowPs, endPs),
    flows: flowRows,
    congestedPorts: congestedPorts(network, portStats, ports),
  };
}

// One row per flow (in id order), with its percentiles.
function flowTable(
  collector: Collector,
  flows: readonly FlowRecord[],
  rates: readonly number[],
  hostName: (host: number) => string,
): Summary["flows"] {
  const latencies = collector.flowLatencies(PS_TO_NS);
  return flows.map((f, i) => ({
    id: f.id,
    src: f.src,
    dst: f.dst,
    srcName: hostName(f.src),
    dstName: hostName(f.dst),
    sl: f.sl,
    group: f.group,
    messages: f.messages,
    completedMessages: f.completedMessages,
    offeredBytes: f.offeredBytes,
    deliveredBytes: f.deliveredBytes,
    windowGbps: rates[i]!,
    deliveredPackets: f.deliveredPackets,
    marks: f.marks === undefined ? { fecn: 0, ecnCe: 0, ecnUe: 0 } : { ...f.marks },
    firstInjectionUs: f.lastDeliveryPs < 0 ? null : round(f.firstInjectionPs * PS_TO_US),
    lastDeliveryUs: f.lastDeliveryPs < 0 ? null : round(f.lastDeliveryPs * PS_TO_US),
    mctUs: f.mctPercentiles(PS_TO_US),
    latencyNs: latencies[f.index]!,
  }));
}

// Per traffic group (in name order), its flows' throughput and fairness. Loops, not spreads:
// a uniform pattern on 648 hosts has 419,256 flows, more arguments than a call may take.
function groupRows(flows: readonly FlowRecord[], rates: readonly number[]): Summary["groups"] {
  const byGroup = new Map<string, number[]>();
  for (let i = 0; i < flows.length; i++) {
    const group = flows[i]!.group;
    let members = byGroup.get(group);
    if (members === undefined) {
      members = [];
      byGroup.set(group, members);
    }
    members.push(i);
  }
  const names = [...byGroup.keys()].sort();
  return names.map((name) => {
    const members = byGroup.get(name)!;
    const groupRates = members.map((i) => rates[i]!);
    let deliveredBytes = 0;
    let sum = 0;
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (const i of members) {
      deliveredBytes += flows[i]!.deliveredBytes;
      const r = rates[i]!;
      sum += r;
      if (r < min) min = r;
      if (r > max) max = r;
    }
    return {
      name,
      flows: members.length,
      deliveredBytes,
      meanGbps: round(sum / members.length),
      minGbps: min,
      maxGbps: max,
      jainIndex: jainOrNull(groupRates),
    };
  });
}

// Per host, the window bytes of the flows it sent and received, as Gb/s over the window, and
// what it received split by traffic group (Paper IV tells hotspots by their "hot" traffic).
function hostRates(
  network: Network,
  flows: readonly FlowRecord[],
  windowPs: number,
  endPs: number,
): Summary["hosts"] {
  const hosts = network.topology.fabric.hosts;
  const sent = new Float64Array(hosts.length);
  const received = new Float64Array(hosts.length);
  const byGroup = new Map<string, Float64Array>();
  for (const f of flows) {
    sent[f.src]! += f.windowBytes;
    received[f.dst]! += f.windowBytes;
    if (f.windowBytes === 0) continue;
    let perHost = byGroup.get(f.group);
    if (perHost === undefined) {
      perHost = new Float64Array(hosts.length);
      byGroup.set(f.group, perHost);
    }
    perHost[f.dst]! += f.windowBytes;
  }
  const groups = [...byGroup.keys()].sort();
  const gbps = (bytes: number) => (windowPs > 0 ? round((bytes * 8000) / windowPs) : 0);
  return hosts.map((h, i) => {
    const receiveGbpsByGroup: Record<string, number> = {};
    for (const group of groups) {
      const bytes = byGroup.get(group)![i]!;
      if (bytes > 0) receiveGbpsByGroup[group] = gbps(bytes);
    }
    const egress = network.hosts[i]!.egressStats(endPs);
    return {
      name: h.name,
      sendGbps: gbps(sent[i]!),
      receiveGbps: gbps(received[i]!),
      receiveGbpsByGroup,
      ...(egress.length === 0 ? {} : { egressBuffer: egressTotals(egress) }),
    };
  });
}

// A host's egress FIFOs, every VL together: the largest peak, XOFF time and events summed.
function egressTotals(
  stats: readonly HostEgressStats[],
): NonNullable<Summary["hosts"][number]["egressBuffer"]> {
  let peakBytes = 0;
  let xoffPs = 0;
  let xoffEvents = 0;
  for (const s of stats) {
    peakBytes = Math.max(peakBytes, s.peakBytes);
    xoffPs += s.xoffPs;
    xoffEvents += s.xoffEvents;
  }
  return { peakBytes, xoffUs: round(xoffPs * PS_TO_US), xoffEvents };
}

function congestedPorts(
  network: Network,
  portStats: readonly (readonly SwitchPortStats[])[],
  ports: PortMap,
): Summary["congestedPorts"] {
  const rows: Summary["congestedPorts"][number][] = [];
  for (const sw of network.switches) {
    for (const stats of portStats[sw.index]!) {
      const { name, peer } = ports.switchPort(sw.index, stats.port);
      stats.meanInputBytes.forEach((mean, vl) => {
        if (mean <= 0 && stats.blockedPs[vl]! <= 0) return;
        rows.push({
          switch: sw.name,
          port: stats.port,
          portName: name,
          peer,
          vl,
          meanInputBytes: round(mean, 1),
          maxInputBytes: stats.maxInputBytes[vl]!,
          blockedUs: round(stats.blockedPs[vl]! * PS_TO_US),
          offTransitions: stats.offTransitions[vl]!,
        });
      });
    }
  }
  rows.sort(
    (a, b) =>
      b.meanInputBytes - a.meanInputBytes ||
      // Code-unit order, not the locale's: the file must be the same on every machine.
      (a.switch < b.switch ? -1 : a.switch > b.switch ? 1 : 0) ||
      a.port - b.port ||
      a.vl - b.vl,
  );
  return rows.slice(0, 16);
}
