import { RateSeries, type TimePs } from "@cclab/core-des";
import { DATA_KIND } from "@cclab/fabric";
import type { Network } from "./network.js";

/**
 * Payload bytes delivered per flow in fixed bins (docs/model.md, "What is measured": flow
 * throughput in a bin is the payload delivered in that bin × 8 / bin width).
 */
export class FlowMeter {
  private readonly series = new Map<number, RateSeries>();

  constructor(
    network: Network,
    readonly binWidthPs: TimePs,
  ) {
    const packets = network.packets;
    network.onDelivery((packet, nowPs) => {
      if (packets.kindCode[packet] !== DATA_KIND) return;
      const flowId = packets.flowId[packet]!;
      let series = this.series.get(flowId);
      if (series === undefined) {
        series = new RateSeries(binWidthPs);
        this.series.set(flowId, series);
      }
      series.add(nowPs, packets.payloadBytes[packet]!);
    });
  }

  /** Mean throughput of `flowId` over [fromPs, toPs), Gb/s; both on bin edges. */
  meanGbps(flowId: number, fromPs: TimePs, toPs: TimePs): number {
    const series = this.series.get(flowId);
    if (series === undefined) return 0;
    const first = Math.round(fromPs / this.binWidthPs);
    const last = Math.round(toPs / this.binWidthPs);
    const bins = series.bytesPerBin(toPs);
    let bytes = 0;
    for (let bin = first; bin < last && bin < bins.length; bin++) bytes += bins[bin]!;
    return (bytes * 8000) / (toPs - fromPs);
  }

  flowIds(): number[] {
    return [...this.series.keys()].sort((a, b) => a - b);
  }
}
