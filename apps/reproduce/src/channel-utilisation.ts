/**
 * Mean channel utilisation from a run's `link-throughput.csv` (the series of every switch
 * output and host uplink, docs/model.md "Metrics"): what the SRP paper's Fig. 10 plots (seed
 * 000_23e1115f082a0339.txt, line 187: "average channel utilization").
 */

/**
 * The mean, over every channel that sent in the run and every bin that starts at or after
 * `fromUs`, of the channel's Gb/s over `capacityGbps`: a fraction of capacity. The file lists
 * each such channel in every bin (zeros included), so the mean is over channels × bins.
 */
export function meanChannelUtilisation(csv: string, fromUs: number, capacityGbps: number): number {
  const lines = csv.trimEnd().split("\n");
  const header = lines[0]!.split(",");
  const at = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`link-throughput.csv has no column ${name}`);
    return i;
  };
  const [bin, gbps] = [at("bin_start_us"), at("gbps")];
  let sum = 0;
  let cells = 0;
  for (let i = 1; i < lines.length; i++) {
    const cols = lines[i]!.split(",");
    if (Number(cols[bin]) < fromUs) continue;
    sum += Number(cols[gbps]);
    cells++;
  }
  if (cells === 0) throw new Error(`link-throughput.csv has no bin from ${fromUs} µs`);
  return sum / cells / capacityGbps;
}
