import type { TimePs } from "@cclab/core-des";
import type { Network } from "@cclab/network";
import { atEveryBinEdge, totalsPerBin } from "./bin-edges.js";
import type { PortEntry, PortMap } from "./port-map.js";

interface Watched {
  readonly device: string;
  readonly port: number;
  /** The link the port transmits on (an index into `network.links`). */
  readonly link: number;
  /** The port's entry in the port map (docs/model.md, "Port names"). */
  readonly entry: (names: PortMap) => PortEntry;
}

/** The file the `link-throughput` series writes. */
export const LINK_THROUGHPUT_FILE = "link-throughput.csv";

/**
 * The `link-throughput` series: per transmitting port (every cabled switch output and host
 * uplink), the Gb/s it sent in each bin. A scheduled sample at every bin edge reads the links'
 * cumulative `bytesSent` (on-the-wire bytes, counted when a packet starts on the link), so the
 * per-packet path does no extra work, and sampling changes no state, so it does not change the
 * run. Only a run that asks for the series makes one.
 */
export class LinkThroughputSampler {
  private readonly ports: Watched[] = [];
  private readonly last: Float64Array;
  /** Rows `[binStartPs, portIndex, bytes]` for bins in which the port sent anything. */
  private readonly rows: number[] = [];

  constructor(
    private readonly network: Network,
    private readonly binPs: TimePs,
  ) {
    for (const sw of network.switches) {
      for (let port = 0; port < sw.portCount; port++) {
        const link = sw.outLink(port);
        if (link < 0) continue;
        this.ports.push({
          device: sw.name,
          port,
          link,
          entry: (names) => names.switchPort(sw.index, port),
        });
      }
    }
    // A host keeps its uplink to itself; the network's link ends say which link leaves it.
    const uplinks = new Map<number, number>();
    network.linkEnds.forEach(({ from }, link) => {
      if (from.kind === "host") uplinks.set(from.index, link);
    });
    for (const host of network.hosts) {
      const link = uplinks.get(host.index);
      if (link === undefined) continue;
      this.ports.push({
        device: host.name,
        port: 0,
        link,
        entry: (names) => names.hostPort(host.index),
      });
    }
    this.last = new Float64Array(this.ports.length);
    atEveryBinEdge(network.scheduler, binPs, "metrics: link-throughput sample", (nowPs) =>
      this.record(nowPs),
    );
  }

  /** Records the bin that ends at `nowPs` (also called once at the end of the run). */
  record(nowPs: TimePs): void {
    const binStart = Math.floor((nowPs - 1) / this.binPs) * this.binPs;
    const sent = this.network.links.bytesSent;
    for (let p = 0; p < this.ports.length; p++) {
      const total = sent[this.ports[p]!.link]!;
      const delta = total - this.last[p]!;
      if (delta > 0) this.rows.push(binStart, p, delta);
      this.last[p] = total;
    }
  }

  /**
   * `link-throughput.csv`: every bin up to `endPs` of each port that ever sent, zeros included,
   * so a plot or a window mean never skips the idle bins.
   */
  csv(endPs: TimePs, names: PortMap): string {
    const bins = Math.ceil(endPs / this.binPs);
    const rows = this.rows;
    const sent = totalsPerBin(rows, 3, this.binPs, bins, (i) => rows[i + 1]!);
    const order = [...sent.keys()].sort((a, b) => a - b);
    const entries = order.map((p) => ({ watched: this.ports[p]!, ...this.ports[p]!.entry(names) }));
    const lines = ["bin_start_us,device,port,gbps,port_name,peer"];
    for (let bin = 0; bin < bins; bin++) {
      // The last bin may be shorter than the others: its rate is over its own width.
      const width = Math.min(this.binPs, endPs - bin * this.binPs);
      order.forEach((p, k) => {
        const { watched, name, peer } = entries[k]!;
        const gbps = (sent.get(p)![bin]! * 8000) / width;
        lines.push(
          `${(bin * this.binPs) / 1e6},${watched.device},${watched.port},${+gbps.toFixed(6)},${name},${peer}`,
        );
      });
    }
    return `${lines.join("\n")}\n`;
  }
}
