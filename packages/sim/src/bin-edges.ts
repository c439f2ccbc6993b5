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
