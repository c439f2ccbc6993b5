/**
 * Mean channel utilisation from a run's `link-throughput.csv` (the series of every switch
 * output and host uplink, docs/model.md "Metrics"): what the SRP paper's Fig. 10 plots (seed
 * 000_23e1115f082a0339.txt, line 187: "average channel utilization").
 */
import { column, parseTable } from "@cclab/plot";

const FILE = "link-throughput.csv";

/**
 * The mean, over every channel that sent in the run and every bin that starts at or after
 * `fromUs`, of the channel's Gb/s over `capacityGbps`: a fraction of capacity. The file lists
 * each such channel in every bin (zeros included), so the mean is over channels × bins.
 */
export function meanChannelUtilisation(csv: string, fromUs: number, capacityGbps: number): number {
  const table = parseTable(csv, FILE);
  const [bin, gbps] = [column(table, "bin_start_us", FILE), column(table, "gbps", FILE)];
  const inWindow = table.rows.filter((row) => Number(row[bin]) >= fromUs);
  if (inWindow.length === 0) throw new Error(`${FILE} has no bin from ${fromUs} µs`);
  const sum = inWindow.reduce((total, row) => total + Number(row[gbps]), 0);
  return sum / inWindow.length / capacityGbps;
}
