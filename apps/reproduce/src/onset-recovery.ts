/**
 * How long a network takes to recover from a transient (the SRP paper's Fig. 7, seed
 * 000_23e1115f082a0339.txt lines 146–150: ECN's "latency and throughput ... recover to
 * pre-transition levels" over about a millisecond): when the delivered throughput is back, and
 * from which start time messages are again as fast as before.
 */

/** A completed message: when it started and how long it took, µs. */
export interface TimedMessage {
  readonly startUs: number;
  readonly fctUs: number;
}

/**
 * The time after `onsetUs` at which a throughput series (Gb/s per bin start, µs) is back at
 * `fraction` of `level` after first falling below it, judged on means over `spanUs` from each
 * bin; `undefined` when it never falls below, `Infinity` when it has not come back by the last
 * bin.
 */
export function throughputBackAfterUs(
  bins: ReadonlyMap<number, number>,
  onsetUs: number,
  level: number,
  fraction: number,
  spanUs: number,
): number | undefined {
  const series = [...bins].filter(([at]) => at >= onsetUs).sort((a, b) => a[0] - b[0]);
  const meanFrom = (i: number) => {
    const end = series[i]![0] + spanUs;
    let sum = 0;
    let n = 0;
    for (let j = i; j < series.length && series[j]![0] < end; j++, n++) sum += series[j]![1];
    return sum / n;
  };
  const threshold = fraction * level;
  const dip = series.findIndex((_, i) => meanFrom(i) < threshold);
  if (dip < 0) return undefined;
  for (let i = dip + 1; i < series.length; i++) {
    if (meanFrom(i) >= threshold) return series[i]![0] - onsetUs;
  }
  return Number.POSITIVE_INFINITY;
}

/**
 * The start of the first window of `windowUs` after `onsetUs` from which the messages started
 * in every window up to `lastStartUs` take on average at most `factor` × `beforeUs`; the time
 * is given after the onset. `Infinity` when even the last whole window is slower.
 */
export function latencyBackAfterUs(
  messages: readonly TimedMessage[],
  onsetUs: number,
  beforeUs: number,
  factor: number,
  windowUs: number,
  lastStartUs: number,
): number {
  const windows = Math.floor((lastStartUs - onsetUs) / windowUs);
  const sums = new Float64Array(windows);
  const counts = new Float64Array(windows);
  for (const m of messages) {
    const w = Math.floor((m.startUs - onsetUs) / windowUs);
    if (w < 0 || w >= windows) continue;
    sums[w]! += m.fctUs;
    counts[w]!++;
  }
  // Empty windows count as slow: nothing started there shows the network is fast again.
  const fast = (w: number) => counts[w]! > 0 && sums[w]! / counts[w]! <= factor * beforeUs;
  let first = windows;
  while (first > 0 && fast(first - 1)) first--;
  return first === windows ? Number.POSITIVE_INFINITY : first * windowUs;
}
