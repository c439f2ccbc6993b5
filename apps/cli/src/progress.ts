import type { Progress } from "@cclab/sim";

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
