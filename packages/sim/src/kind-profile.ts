import type { KindProfile } from "@cclab/core-des";
import { table } from "./text-summary.js";

/**
 * The text table of where a run's time in event handlers went, by event kind (`simulate`'s
 * `profileKinds`): events, share of the handlers' time and mean time per event. The timed
 * events run a little slower than the others (the clock reading disturbs the caches), which
 * puts each kind's mean about 0.05–0.1 µs high: the table ranks and compares the kinds, and
 * does not tell the event loop's own share.
 */
export function kindProfileTable(profile: readonly KindProfile[]): string[] {
  const total = profile.reduce((ms, p) => ms + p.handlerMs, 0);
  const rows = profile
    .filter((p) => p.events > 0)
    .map((p) => [
      p.kind,
      String(p.events),
      total > 0 ? ((100 * p.handlerMs) / total).toFixed(1) : "-",
      ((1000 * p.handlerMs) / p.events).toFixed(3),
    ]);
  return table(["event kind", "events", "% of handler time", "µs/event"], rows);
}
