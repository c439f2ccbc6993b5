/**
 * Variance over bins of the spread (highest minus lowest) of flows' throughput, over the bins
 * all of them have: Paper III's treatment variation Var (Gran thesis, seed 001 L1497) when
 * every flow is active in those bins. Sample variance (n − 1), Gb/s² for Gb/s inputs; 0 for
 * fewer than two bins.
 */
export function spreadVariance(flows: readonly (readonly number[])[]): number {
  const bins = Math.min(...flows.map((f) => f.length));
  const deltas: number[] = [];
  for (let i = 0; i < bins; i++) {
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (const f of flows) {
      const x = f[i]!;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    deltas.push(hi - lo);
  }
  if (deltas.length < 2) return 0;
  const mean = deltas.reduce((s, d) => s + d, 0) / deltas.length;
  return deltas.reduce((s, d) => s + (d - mean) ** 2, 0) / (deltas.length - 1);
}

/**
 * Treatment variation of a traffic group from its flows' binned throughput: the
 * {@link spreadVariance} over the bins where every flow is active. A flow is active from its
 * first bin with traffic to the end of the run (a throttled flow that delivers nothing in a bin
 * is still active). Undefined with fewer than two flows, a flow that never sent, or fewer than
 * two bins where all are active.
 */
export function treatmentVariation(flows: readonly (readonly number[])[]): number | undefined {
  if (flows.length < 2) return undefined;
  const starts = flows.map((f) => f.findIndex((x) => x > 0));
  if (starts.some((s) => s < 0)) return undefined;
  const start = Math.max(...starts);
  const active = flows.map((f) => f.slice(start));
  if (Math.min(...active.map((f) => f.length)) < 2) return undefined;
  return spreadVariance(active);
}
