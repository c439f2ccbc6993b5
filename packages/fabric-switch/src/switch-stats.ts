import type { TimePs } from "@cclab/core-des";
import type { InputBuffers, LinkSet, PortFlowState } from "@cclab/fabric";
import type { OutputBuffers } from "./output-buffers.js";

/** Per-port counters of a switch (docs/model.md, "What is measured"). */
export interface SwitchPortStats {
  readonly port: number;
  readonly bytesForwarded: number;
  readonly packetsForwarded: number;
  /** Per VL: time the output had a packet ready but was held by flow control, ps. */
  readonly blockedPs: readonly number[];
  /** Per VL: ON→OFF transitions of the output. */
  readonly offTransitions: readonly number[];
  /** Per VL: time-weighted mean and maximum input-buffer occupancy, bytes. */
  readonly meanInputBytes: readonly number[];
  readonly maxInputBytes: readonly number[];
  /** Per VL: mean input occupancy in each bin, bytes (only with `occupancyBinNs`). */
  readonly inputBytesSeries?: readonly Float64Array[];
  /** Per VL: highest output-buffer occupancy, bytes (only with output buffers). */
  readonly maxOutputBytes?: readonly number[];
  /** Per VL: mean output-buffer occupancy in each bin, bytes (output buffers and `occupancyBinNs`). */
  readonly outputBytesSeries?: readonly Float64Array[];
}

/** What a switch's statistics are read from. */
export interface SwitchStatsSource {
  readonly portCount: number;
  readonly vlCount: number;
  readonly links: LinkSet;
  /** The link leaving each port, or −1 where none is cabled. */
  outLink(port: number): number;
  readonly outFlow: readonly (PortFlowState | undefined)[];
  readonly inputs: InputBuffers;
  readonly outputs: OutputBuffers | undefined;
}

/** Counters per port of a switch, with occupancy means up to `untilPs`. */
export function switchPortStats(sw: SwitchStatsSource, untilPs: TimePs): SwitchPortStats[] {
  const stats: SwitchPortStats[] = [];
  const vls = Array.from({ length: sw.vlCount }, (_, vl) => vl);
  const { inputs, outputs } = sw;
  for (let port = 0; port < sw.portCount; port++) {
    const link = sw.outLink(port);
    const flow = sw.outFlow[port];
    const inputSeries = vls.map((vl) => inputs.binnedBytes(port, vl, untilPs));
    const outputSeries = vls.map((vl) => outputs?.binnedBytes(port, vl, untilPs));
    stats.push({
      port,
      bytesForwarded: link >= 0 ? sw.links.bytesSent[link]! : 0,
      // The link counts what the switch started on it: no counter of its own per packet.
      packetsForwarded: link >= 0 ? sw.links.packetsSent[link]! : 0,
      blockedPs: vls.map((vl) => flow?.blockedPsUntil(vl, untilPs) ?? 0),
      offTransitions: vls.map((vl) => flow?.offTransitions[vl] ?? 0),
      meanInputBytes: vls.map((vl) => inputs.meanBytes(port, vl, untilPs)),
      maxInputBytes: vls.map((vl) => inputs.maxBytes(port, vl)),
      ...(inputSeries.every((s) => s !== undefined) && sw.vlCount > 0
        ? { inputBytesSeries: inputSeries as Float64Array[] }
        : {}),
      ...(outputs === undefined
        ? {}
        : { maxOutputBytes: vls.map((vl) => outputs.maxBytes(port, vl)) }),
      ...(outputSeries.every((s) => s !== undefined) && sw.vlCount > 0
        ? { outputBytesSeries: outputSeries as Float64Array[] }
        : {}),
    });
  }
  return stats;
}
