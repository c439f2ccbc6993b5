/**
 * ECMP's per-flow choice: a hash of the flow id, mixed with the switch index so that switches
 * on one path do not all make the same choice (polarisation), modulo `count` equal-cost ports
 * (1 ≤ count ≤ 32767).
 *
 * The hash is MurmurHash3's 32-bit finalizer (fmix32), whose every output bit depends on every
 * input bit. The multiplicative hash used before it kept the low bits of its input: flow ids
 * are `(src · hosts + dst) · vlCount + sl`, so with two VLs (DCQCN's control VL) every id was
 * even, and with 16 up-ports only 8 were ever chosen (uniform256 with DCQCN: half the leaf
 * uplinks idle, the other half at 100 % and 70 k packets queued for them).
 *
 * The result is `(h >>> 0) % count` for the 32-bit hash h, computed in 16-bit halves: the
 * unsigned value is a double above 2^31, and V8 takes a double's remainder with the x87 `fprem`
 * instruction, which perf annotate showed on the route of every packet-hop of uniform256.
 */
export function flowHashModulo(flowId: number, switchIndex: number, count: number): number {
  let h = flowId ^ Math.imul(switchIndex + 1, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return (((h >>> 16) % count) * 0x10000 + (h & 0xffff)) % count;
}
