/** Distinct line colours (Tableau 10 and two more), readable on white. */
export const PALETTE = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#c9a227",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#79706e",
  "#1b9e77",
  "#d95f02",
];

export function colorAt(i: number): string {
  return PALETTE[i % PALETTE.length]!;
}

/** Dash patterns telling overlaid runs apart (the first run solid). */
export const DASHES: readonly (readonly number[])[] = [[], [8, 4], [2, 3], [10, 3, 2, 3]];

/** Viridis-like ramp for heat maps and link colours: t in [0, 1]. */
const RAMP = ["#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"];

export function ramp(t: number): string {
  return interpolate(RAMP, t);
}

function interpolate(stops: readonly string[], t: number): string {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const a = hex(stops[i]!);
  const b = hex(stops[i + 1]!);
  const c = a.map((v, k) => Math.round(v + (b[k]! - v) * f));
  return `rgb(${c.join(",")})`;
}

/** Light grey (idle) to dark red (busy): links on the topology, where 0 should recede. */
const LINK_RAMP = ["#d4d4d4", "#fdae61", "#f46d43", "#d73027", "#7f0000"];

export function linkRamp(t: number): string {
  return interpolate(LINK_RAMP, t);
}

/** Text colour readable on `ramp(t)`. */
export function rampText(t: number): string {
  return t > 0.55 ? "#111" : "#fff";
}

function hex(c: string): number[] {
  return [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16));
}
