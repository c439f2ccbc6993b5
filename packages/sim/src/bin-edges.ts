import type { Scheduler, TimePs } from "@cclab/core-des";

/**
 * Calls `record(nowPs)` at every bin edge (`binPs`, 2 × `binPs`, …) through an event kind of its
 * own named `name`. The samplers of the binned series (blocked time, link throughput, CC state
 * per flow and per queue) read counters there and change no state, so sampling does not change
 * the run; each also records once more at the end of the run.
 */
export function atEveryBinEdge(
  scheduler: Scheduler,
  binPs: TimePs,
  name: string,
  record: (nowPs: TimePs) => void,
): void {
  const kind = scheduler.defineKind(name, () => {
    const now = scheduler.nowPs;
    record(now);
    scheduler.schedule(now + binPs, kind, 0);
  });
  scheduler.schedule(binPs, kind, 0);
}

/**
 * Drops the trailing records of `rows` (records of `stride` numbers, the time first) taken at
 * `timePs`. A gauge sampler calls it before sampling: the end-of-run sample can fall on a bin
 * edge already sampled, and it supersedes that edge's sample, which was taken before the other
 * events of that time (a sampled variable may change at the edge itself, e.g. a CCTI timer).
 */
export function dropRowsAt(rows: number[], stride: number, timePs: TimePs): void {
  while (rows.length >= stride && rows[rows.length - stride] === timePs) rows.length -= stride;
}

/**
 * A sampler's rows summed per key and bin: `rows` holds records of `stride` numbers, each
 * `[binStartPs, …, value]` (the value last), and `keyOf(i)` gives the key of the record at
 * offset `i`. Each key that has a record gets an array of `bins` totals, for a CSV that lists
 * every bin of it, zeros included.
 */
export function totalsPerBin(
  rows: readonly number[],
  stride: number,
  binPs: TimePs,
  bins: number,
  keyOf: (offset: number) => number,
): Map<number, Float64Array> {
  const totals = new Map<number, Float64Array>();
  for (let i = 0; i < rows.length; i += stride) {
    const key = keyOf(i);
    let perBin = totals.get(key);
    if (perBin === undefined) {
      perBin = new Float64Array(bins);
      totals.set(key, perBin);
    }
    perBin[Math.floor(rows[i]! / binPs)]! += rows[i + stride - 1]!;
  }
  return totals;
}
