import type { TimePs } from "@cclab/core-des";
import { flowEndpoints } from "@cclab/fabric-hca";
import type { SwitchPortStats } from "@cclab/fabric-switch";
import type { Network } from "@cclab/network";
import type { BlockedSampler } from "./blocked-sampler.js";
import { type CcQueueSampler, QUEUE_SERIES_FILE } from "./cc-queue-sampler.js";
import type { CcSampler } from "./cc-sampler.js";
import type { Collector } from "./collector.js";
import type { EgressMeter } from "./egress-meter.js";
import { LINK_THROUGHPUT_FILE, type LinkThroughputSampler } from "./link-throughput-sampler.js";
import type { PortMap } from "./port-map.js";
import type { ResolvedScenario } from "./scenario/resolve.js";

export interface SeriesInputs {
  readonly scenario: ResolvedScenario;
  readonly network: Network;
  readonly collector: Collector;
  readonly sampler: BlockedSampler | undefined;
  /** With the `link-throughput` series: the sampler of every transmitting port's bytes. */
  readonly linkThroughput?: LinkThroughputSampler | undefined;
  readonly ccSampler: CcSampler | undefined;
  /** With the `cc-queues` series and a switch part that reports its queues. */
  readonly ccQueues?: CcQueueSampler | undefined;
  /** With the `egress-occupancy` series: the meter of every switch's egress queues. */
  readonly egress?: EgressMeter | undefined;
  readonly endPs: TimePs;
  readonly binPs: TimePs;
  readonly portStats: readonly (readonly SwitchPortStats[])[];
  /** The fabric's port names (docs/model.md, "Port names"). */
  readonly ports: PortMap;
}

const num = (x: number, digits = 6) => String(+x.toFixed(digits));

/** Every file {@link seriesFiles} may write, by name. */
export const SERIES_FILES = [
  "cc-flows.csv",
  QUEUE_SERIES_FILE,
  "flow-throughput.csv",
  "host-throughput.csv",
  "ports.csv",
  "port-occupancy.csv",
  "output-occupancy.csv",
  "egress-occupancy.csv",
  "flow-control.csv",
  LINK_THROUGHPUT_FILE,
  "messages.csv",
] as const;

/**
 * The CSV files of a run, by name (packages/sim/README.md, "Results"). Long ("tidy") format:
 * one row per bin and series, so plotting tools can facet and colour by any column.
 * - `flow-throughput.csv`: payload Gb/s per flow and bin (the first `metrics.maxFlowSeries`).
 * - `host-throughput.csv`: payload Gb/s received per host, traffic group and bin (the pairs
 *   that ever received).
 * - `port-occupancy.csv`: mean input-buffer bytes per switch port, VL and bin (ports that held
 *   anything); with output buffers also `output-occupancy.csv`, the same for the output buffers.
 * - `egress-occupancy.csv`: mean and maximum egress-queue bytes per switch output port, VL and
 *   bin (queues that ever held bytes; docs/model.md, "What is measured").
 * - `flow-control.csv`: fraction of each bin a transmitting port was paused or out of credits
 *   (every bin of the ports that were ever blocked, zeros included).
 * - `link-throughput.csv`: Gb/s each switch output and host uplink sent in each bin, on-the-wire
 *   bytes (every bin of the ports that ever sent, zeros included; the `link-throughput` series).
 * - `cc-flows.csv`: each sender part's per-flow CC variables at every bin edge (with a CC scheme).
 * - `cc-queues.csv`: each switch part's per-egress-queue CC variables at every bin edge (the
 *   `cc-queues` series, with a part that reports them; the first `metrics.maxQueueSeries`).
 * - `ports.csv`: every port (switches', then hosts') and VL: its name, what it is cabled to, and
 *   its totals.
 * Port rows carry `port_name` (`S3.p5`) and `peer` (`H17`), the names of docs/model.md,
 * "Port names".
 * - `messages.csv`: completed messages (the first `metrics.maxMessageRecords`) with their
 *   completion time and slowdown.
 */
export function seriesFiles(inputs: SeriesInputs): Map<string, string> {
  const { scenario, network, collector, sampler, ccSampler, endPs, binPs, portStats, ports } =
    inputs;
  const messages = collector.messages;
  const files = new Map<string, string>();
  const bins = Math.ceil(endPs / binPs);
  const binUs = (i: number) => num((i * binPs) / 1e6);
  const series = scenario.metrics.series;
  const hostName = (h: number) => network.topology.fabric.hosts[h]!.name;

  if (ccSampler !== undefined) {
    const hostCount = network.hosts.length;
    const vlCount = network.switchConfig.vlCount;
    files.set(
      "cc-flows.csv",
      ccSampler.csv((flowId) => {
        const { srcHost, dstHost } = flowEndpoints(flowId, hostCount, vlCount);
        return { src: hostName(srcHost), dst: hostName(dstHost) };
      }),
    );
  }

  if (inputs.ccQueues !== undefined) files.set(QUEUE_SERIES_FILE, inputs.ccQueues.csv(ports));

  if (series.includes("flow-throughput")) {
    const lines = ["bin_start_us,flow,src,dst,group,gbps"];
    for (let i = 0; i < bins; i++) {
      collector.seriesFlows.forEach((flow, k) => {
        const bytes = collector.seriesBytes[k]![i] ?? 0;
        const width = Math.min(binPs, endPs - i * binPs);
        lines.push(
          `${binUs(i)},${flow.id},${hostName(flow.src)},${hostName(flow.dst)},${flow.group},${num((bytes * 8000) / width)}`,
        );
      });
    }
    files.set("flow-throughput.csv", `${lines.join("\n")}\n`);
  }

  if (series.includes("host-throughput")) {
    const lines = ["bin_start_us,host,group,gbps"];
    const order = collector.hostSeriesKeys
      .map((key, k) => ({ ...key, k }))
      .sort((a, b) => a.host - b.host || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
    for (let i = 0; i < bins; i++) {
      const width = Math.min(binPs, endPs - i * binPs);
      for (const { host, group, k } of order) {
        const bytes = collector.hostSeries[k]![i] ?? 0;
        lines.push(`${binUs(i)},${hostName(host)},${group},${num((bytes * 8000) / width)}`);
      }
    }
    files.set("host-throughput.csv", `${lines.join("\n")}\n`);
  }

  const portLines = [
    "device,port,port_name,peer,vl,bytes_forwarded,packets_forwarded,mean_input_bytes,max_input_bytes,blocked_us,off_transitions",
  ];
  const occupancyLines = ["bin_start_us,switch,port,vl,mean_input_bytes,port_name,peer"];
  const outputLines = ["bin_start_us,switch,port,vl,mean_output_bytes,port_name,peer"];
  for (const sw of network.switches) {
    for (const stats of portStats[sw.index]!) {
      const { name, peer } = ports.switchPort(sw.index, stats.port);
      stats.outputBytesSeries?.forEach((binned, vl) => {
        if (stats.maxOutputBytes?.[vl] === 0) return;
        for (let i = 0; i < binned.length; i++) {
          outputLines.push(
            `${binUs(i)},${sw.name},${stats.port},${vl},${num(binned[i]!, 1)},${name},${peer}`,
          );
        }
      });
      stats.meanInputBytes.forEach((mean, vl) => {
        portLines.push(
          `${sw.name},${stats.port},${name},${peer},${vl},${stats.bytesForwarded},${stats.packetsForwarded},${num(mean, 1)},${stats.maxInputBytes[vl]},${num(stats.blockedPs[vl]! / 1e6)},${stats.offTransitions[vl]}`,
        );
        const binned = stats.inputBytesSeries?.[vl];
        if (binned === undefined || stats.maxInputBytes[vl] === 0) return;
        for (let i = 0; i < binned.length; i++) {
          occupancyLines.push(
            `${binUs(i)},${sw.name},${stats.port},${vl},${num(binned[i]!, 1)},${name},${peer}`,
          );
        }
      });
    }
  }
  for (const host of network.hosts) {
    const { name, peer } = ports.hostPort(host.index);
    for (const s of host.portStats(endPs)) {
      portLines.push(
        `${host.name},0,${name},${peer},${s.vl},${s.bytesSent},${s.packetsSent},${num(s.meanInputBytes, 1)},${s.maxInputBytes},${num(s.blockedPs / 1e6)},${s.offTransitions}`,
      );
    }
  }
  files.set("ports.csv", `${portLines.join("\n")}\n`);
  if (series.includes("port-occupancy")) {
    files.set("port-occupancy.csv", `${occupancyLines.join("\n")}\n`);
    // Switches with output buffers: what waits there, beside what waits at the inputs.
    if (outputLines.length > 1) files.set("output-occupancy.csv", `${outputLines.join("\n")}\n`);
  }
  if (inputs.egress !== undefined) files.set("egress-occupancy.csv", egressCsv(inputs, ports));
  if (sampler !== undefined) files.set("flow-control.csv", sampler.csv(endPs, ports));
  if (inputs.linkThroughput !== undefined) {
    files.set(LINK_THROUGHPUT_FILE, inputs.linkThroughput.csv(endPs, ports));
  }

  if (!scenario.metrics.messageTable) return files;
  const messageLines = [
    "message,flow,src,dst,bytes,start_us,completed_us,fct_us,ideal_us,slowdown",
  ];
  for (const m of messages) {
    const fct = m.completedPs - m.createdPs;
    messageLines.push(
      `${m.id},${m.flowId},${hostName(m.src)},${hostName(m.dst)},${m.bytes},${num(m.createdPs / 1e6)},${num(m.completedPs / 1e6)},${num(fct / 1e6)},${num(m.idealPs / 1e6)},${num(fct / m.idealPs)}`,
    );
  }
  files.set("messages.csv", `${messageLines.join("\n")}\n`);
  return files;
}

function egressCsv({ network, egress, endPs }: SeriesInputs, ports: PortMap): string {
  const lines = ["bin_start_us,switch,port,vl,mean_egress_bytes,max_egress_bytes,port_name,peer"];
  for (const sw of network.switches) {
    for (const q of egress!.of(sw.index)?.series(endPs) ?? []) {
      const { name, peer } = ports.switchPort(sw.index, q.port);
      for (let i = 0; i < q.meanBytes.length; i++) {
        lines.push(
          `${num((i * egress!.binPs) / 1e6)},${sw.name},${q.port},${q.vl},${num(q.meanBytes[i]!, 1)},${q.maxBytes[i]},${name},${peer}`,
        );
      }
    }
  }
  return `${lines.join("\n")}\n`;
}
