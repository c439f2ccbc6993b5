import type { CdfPoints } from "../cdf-points.js";

/**
 * WebSearch: flow sizes of a production web-search cluster, from Alizadeh et al., "Data Center
 * TCP (DCTCP)", SIGCOMM 2010 (its background flows), as the HPCC/ns-3 RDMA traffic generator
 * ships them: repository alibaba-edu/High-Precision-Congestion-Control, file
 * traffic_gen/WebSearch_distribution.txt, commit 9cf8b9e8c8d04a3775e06c972c4699dcbce53c37.
 * That repository states no license (no LICENSE file, none in its READMEs); only these published
 * measurements (numbers, not code) are copied.
 *
 * Units: bytes, and the fraction of flows of at most that size. Converted from the file's
 * "bytes percent" lines: percent ÷ 100, and its first point "0 0" becomes [1, 0] because a
 * message has at least one byte (the generator itself raises a size of 0 to 1). Mean (linear
 * interpolation between points): 1 711 250.075 bytes; the file's own mean is 1 711 250.
 */
export const WEBSEARCH_POINTS: CdfPoints = Object.freeze([
  Object.freeze([1, 0] as const),
  Object.freeze([10_000, 0.15] as const),
  Object.freeze([20_000, 0.2] as const),
  Object.freeze([30_000, 0.3] as const),
  Object.freeze([50_000, 0.4] as const),
  Object.freeze([80_000, 0.53] as const),
  Object.freeze([200_000, 0.6] as const),
  Object.freeze([1_000_000, 0.7] as const),
  Object.freeze([2_000_000, 0.8] as const),
  Object.freeze([5_000_000, 0.9] as const),
  Object.freeze([10_000_000, 0.97] as const),
  Object.freeze([30_000_000, 1] as const),
]);
