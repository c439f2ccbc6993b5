import type { CdfPoints } from "../cdf-points.js";

/**
 * Hadoop: flow sizes of a Facebook Hadoop cluster, from Roy et al., "Inside the Social
 * Network's (Datacenter) Network", SIGCOMM 2015, as the HPCC/ns-3 RDMA traffic generator ships
 * them ("FbHdp"): repository alibaba-edu/High-Precision-Congestion-Control, file
 * traffic_gen/FbHdp_distribution.txt, commit 9cf8b9e8c8d04a3775e06c972c4699dcbce53c37.
 * That repository states no license (no LICENSE file, none in its READMEs); only these published
 * measurements (numbers, not code) are copied.
 *
 * Units: bytes, and the fraction of flows of at most that size. Converted from the file's
 * "bytes percent" lines: percent ÷ 100, and its first point "0 0" becomes [1, 0] because a
 * message has at least one byte (the generator itself raises a size of 0 to 1). Mean (linear
 * interpolation between points): 120 420.755 bytes; the file's own mean is 120 420.75.
 */
export const HADOOP_POINTS: CdfPoints = Object.freeze([
  Object.freeze([1, 0] as const),
  Object.freeze([100, 0.01] as const),
  Object.freeze([200, 0.02] as const),
  Object.freeze([300, 0.05] as const),
  Object.freeze([350, 0.15] as const),
  Object.freeze([400, 0.2] as const),
  Object.freeze([500, 0.3] as const),
  Object.freeze([600, 0.4] as const),
  Object.freeze([700, 0.5] as const),
  Object.freeze([1000, 0.6] as const),
  Object.freeze([2000, 0.67] as const),
  Object.freeze([7000, 0.7] as const),
  Object.freeze([30_000, 0.72] as const),
  Object.freeze([50_000, 0.82] as const),
  Object.freeze([80_000, 0.87] as const),
  Object.freeze([120_000, 0.9] as const),
  Object.freeze([300_000, 0.95] as const),
  Object.freeze([1_000_000, 0.975] as const),
  Object.freeze([2_000_000, 0.99] as const),
  Object.freeze([10_000_000, 1] as const),
]);
