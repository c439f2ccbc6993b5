import type { Resolved } from "./scenario/resolve.js";

/**
 * A rough upper estimate of a run's memory, from the scenario alone, so `cclab run` can refuse
 * one that would not fit before it starts (packages/sim/README.md, "Memory estimate"). The
 * model, per part:
 *
 * - base: 256 MiB (Node.js, the code, the scheduler) plus 4 KiB per port and VL (devices'
 *   queues and counters) and 16 B per switch and host (forwarding tables);
 * - packets: every buffer (switch input buffers or shared memory, output buffers, host
 *   receive buffers and egress FIFOs) full of MTU-sized packets, 128 B of packet columns each;
 * - series, over `bins = run.durationUs / metrics.binUs` (none without durationUs: the bins then
 *   grow with the run and are not counted): 88 B per row and bin (8 B of the bin, 80 B of its
 *   CSV line): flow-throughput and cc `maxFlowSeries` rows, host-throughput hosts × traffic
 *   entries, port-occupancy and flow-control switch ports × VLs, egress-occupancy ports × VLs
 *   with 2 values, cc-queues `maxQueueSeries` (at most switch ports × VLs) queues with 4
 *   variables (TCD's), link-throughput switch ports plus hosts;
 * - messages.csv: 100 B per record, `maxMessageRecords` of them;
 * - the flow table: 256 B per flow, hosts × (hosts − 1) flows at most.
 */
export interface MemoryEstimate {
  readonly bytes: number;
  readonly parts: readonly { readonly name: string; readonly bytes: number }[];
  /** Bins of every series, or null when the run has no durationUs. */
  readonly bins: number | null;
}

const MiB = 2 ** 20;

export function estimateMemory({ scenario, topology }: Resolved): MemoryEstimate {
  const { fabric } = topology;
  const hosts = fabric.hosts.length;
  const switchPorts = fabric.switches.reduce((n, s) => n + s.portCount, 0);
  const vls = scenario.switch.vlCount;
  const ports = (hosts + switchPorts) * vls;
  const { metrics, run } = scenario;
  const bins = run.durationUs === undefined ? null : Math.ceil(run.durationUs / metrics.binUs);

  const sw = scenario.switch;
  const switchBuffers =
    sw.buffer.model === "shared"
      ? fabric.switches.length * sw.buffer.sharedBytes
      : switchPorts * vls * sw.buffer.bytesPerPortVl;
  const bufferBytes =
    switchBuffers +
    switchPorts * vls * sw.outputBufferBytes +
    hosts * vls * (scenario.host.receiveBufferBytes + (scenario.host.egressBuffer?.bytes ?? 0));

  const series = new Set(metrics.series);
  const rows =
    (series.has("flow-throughput") ? metrics.maxFlowSeries : 0) +
    (series.has("cc") ? metrics.maxFlowSeries : 0) +
    (series.has("host-throughput") ? hosts * scenario.traffic.length : 0) +
    (series.has("port-occupancy") ? switchPorts * vls : 0) +
    (series.has("flow-control") ? switchPorts * vls : 0) +
    (series.has("egress-occupancy") ? 2 * switchPorts * vls : 0) +
    (series.has("link-throughput") ? switchPorts + hosts : 0) +
    (series.has("cc-queues") ? 4 * Math.min(metrics.maxQueueSeries, switchPorts * vls) : 0);

  const parts = [
    {
      name: "base",
      bytes: 256 * MiB + ports * 4096 + (fabric.switches.length + hosts) * hosts * 16,
    },
    { name: "packets", bytes: Math.ceil(bufferBytes / scenario.host.mtuBytes) * 128 },
    { name: "series", bytes: bins === null ? 0 : rows * bins * 88 },
    { name: "messages.csv", bytes: metrics.messageTable ? metrics.maxMessageRecords * 100 : 0 },
    { name: "flow table", bytes: metrics.flowTable ? hosts * Math.max(0, hosts - 1) * 256 : 0 },
  ];
  return { bytes: parts.reduce((n, p) => n + p.bytes, 0), parts, bins };
}

/** `12.3 GiB`. */
export function formatBytes(bytes: number): string {
  const GiB = 2 ** 30;
  return bytes >= GiB ? `${(bytes / GiB).toPrecision(3)} GiB` : `${Math.ceil(bytes / MiB)} MiB`;
}
