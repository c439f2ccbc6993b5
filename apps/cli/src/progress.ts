import type { Progress } from "@cclab/sim";
import type { SweepProgress } from "@cclab/sweep";

/** Simulated time with a unit that keeps 3–4 significant digits. */
export function formatSimTime(ps: number): string {
  if (ps >= 1e12) return `${(ps / 1e12).toFixed(3)} s`;
  if (ps >= 1e9) return `${(ps / 1e9).toFixed(3)} ms`;
  if (ps >= 1e6) return `${(ps / 1e6).toFixed(3)} µs`;
  return `${(ps / 1e3).toFixed(1)} ns`;
}

function formatSeconds(s: number): string {
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${s.toFixed(s < 10 ? 1 : 0)} s`;
}

/** One progress line: simulated time, percent, events/s and ETA. */
export function progressLine(p: Progress): string {
  const percent = p.fraction === null ? "   ?  " : `${(p.fraction * 100).toFixed(1).padStart(5)}%`;
  const end = p.endPs === null ? "until all messages complete" : formatSimTime(p.endPs);
  const eta = p.etaSeconds === null ? "" : `  ETA ${formatSeconds(p.etaSeconds)}`;
  return `[${percent}] ${formatSimTime(p.simulatedPs)} of ${end}  ${(p.eventsPerSecond / 1e6).toFixed(2)} M events/s  ${formatSeconds(p.wallMs / 1000)} elapsed${eta}`;
}

/** `[########················] 12/25 points (3 resumed, 1 failed)  ETA 1 min 20 s` */
export function sweepProgressLine(p: SweepProgress, elapsedMs: number): string {
  const width = 24;
  const filled = Math.round((width * p.done) / Math.max(1, p.total));
  const ran = p.done - p.resumed;
  const left = p.total - p.done;
  // Points finished earlier took no time now: the rate counts only the points run now.
  const eta =
    ran > 0 && left > 0 ? `  ETA ${formatSeconds(((elapsedMs / ran) * left) / 1000)}` : "";
  const extra = [
    ...(p.resumed > 0 ? [`${p.resumed} resumed`] : []),
    ...(p.failed > 0 ? [`${p.failed} failed`] : []),
  ];
  return `[${"#".repeat(filled)}${"·".repeat(width - filled)}] ${p.done}/${p.total} points${extra.length > 0 ? ` (${extra.join(", ")})` : ""}${eta}`;
}
