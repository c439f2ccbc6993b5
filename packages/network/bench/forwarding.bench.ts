/**
 * Packet forwarding through one switch: N hosts on one switch, each sending long messages to
 * the next host (a permutation, so no output is oversubscribed), credit flow control, VOQ.
 * Prints packets forwarded per wall-clock second and scheduler events per second, medians of
 * 5 runs. Run with `npm run bench` (from the repository root or this package).
 */
import { msToPs } from "@cclab/core-des";
import { singleSwitch } from "@cclab/topologies";
import { Network } from "../src/index.js";

function once(
  hosts: number,
  simulatedMs: number,
): { packetsPerS: number; eventsPerS: number; packets: number } {
  const net = new Network(singleSwitch({ hosts, rateGbps: 100, latencyNs: 100 }));
  for (let h = 0; h < hosts; h++) {
    net.addMessage(h, { dstHost: (h + 1) % hosts, bytes: 1e9, startPs: 0 });
  }
  const t0 = performance.now();
  net.run(msToPs(simulatedMs));
  const seconds = (performance.now() - t0) / 1000;
  const packets = net.switches[0]!.portStats(net.nowPs).reduce(
    (sum, p) => sum + p.packetsForwarded,
    0,
  );
  return { packetsPerS: packets / seconds, eventsPerS: net.scheduler.processed / seconds, packets };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const started = performance.now();
console.log(
  `packet forwarding through one switch (permutation, 100 Gb/s, MTU 2048), median of 5, node ${process.version}`,
);
console.log("ports   simulated   packets      packets/s       events/s");
for (const [hosts, ms] of [
  [8, 2],
  [36, 1],
] as const) {
  once(hosts, ms / 4);
  const runs = Array.from({ length: 5 }, () => once(hosts, ms));
  console.log(
    `${String(hosts).padStart(5)}   ${String(ms).padStart(6)} ms   ${String(runs[0]!.packets).padStart(7)}   ${(median(runs.map((r) => r.packetsPerS)) / 1e6).toFixed(2).padStart(8)} M/s   ${(median(runs.map((r) => r.eventsPerS)) / 1e6).toFixed(2).padStart(8)} M/s`,
  );
}
console.log(`wall time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
