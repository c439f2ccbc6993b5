/**
 * ECMP's per-flow choice: a multiplicative hash of the flow id, mixed with the switch index so
 * that switches on one path do not all make the same choice (polarisation), modulo `count`
 * equal-cost ports (1 ≤ count ≤ 32767).
 *
 * The result is `(h >>> 0) % count` for the 32-bit hash h, computed in 16-bit halves: the
 * unsigned value is a double above 2^31, and V8 takes a double's remainder with the x87 `fprem`
 * instruction, which perf annotate showed on the route of every packet-hop of uniform256.
 */
export function flowHashModulo(flowId: number, switchIndex: number, count: number): number {
  const h = Math.imul(flowId ^ Math.imul(switchIndex + 1, 0x9e3779b1), 0x85ebca6b);
  return (((h >>> 16) % count) * 0x10000 + (h & 0xffff)) % count;
}
