/**
 * What the viewer's data layer hands the browser app: a manifest of the runs and sweeps the
 * user named, each run's detail (summary, series list, port map) and series data. The same
 * JSON comes from the server's endpoints and from a static export's `data.js`.
 */

/** A JSON value as a sweep axis holds it (numbers, strings, booleans, null). */
export type AxisValue = string | number | boolean | null;

/** One finished run: a result directory, or a point of a sweep. */
export interface RunEntry {
  readonly id: string;
  /** The directory's name (or `<sweep>/<point>`), as `cclab compare` labels runs. */
  readonly label: string;
  /** The directory as the user named it. */
  readonly path: string;
  readonly scenario: string;
  readonly seed: number;
  readonly status: string;
  readonly simulatedUs: number;
  /** The sweep this run is a point of. */
  readonly sweep?: string;
}

export interface SweepAxis {
  readonly path: string;
  readonly values: readonly AxisValue[];
}

export interface SweepPoint {
  readonly id: string;
  /** The point's run, when it finished (its `summary.json` exists). */
  readonly runId?: string;
  readonly values: Readonly<Record<string, AxisValue>>;
  readonly seed: number;
  readonly status: string;
  /** The numeric columns of `sweep.csv` (summary figures); null where empty. */
  readonly metrics: Readonly<Record<string, number | null>>;
  readonly error?: string;
}

export interface SweepEntry {
  readonly id: string;
  readonly label: string;
  readonly path: string;
  readonly name: string;
  readonly axes: readonly SweepAxis[];
  /** The metric columns of `sweep.csv`, in its order; `plot` the ones the sweep file plots. */
  readonly metrics: readonly string[];
  readonly plot: readonly string[];
  readonly points: readonly SweepPoint[];
}

export interface Manifest {
  readonly runs: readonly RunEntry[];
  readonly sweeps: readonly SweepEntry[];
}

/** One line of a series set: a flow, a group's mean, a host, a port and VL. */
export interface LineInfo {
  readonly key: string;
  readonly label: string;
  readonly group?: string;
  readonly mean: number;
  readonly max: number;
}

/** A figure's worth of lines over time, sharing one x axis (µs). */
export interface SeriesInfo {
  readonly name: string;
  readonly title: string;
  readonly unit: string;
  /** Lines ranked by mean, largest first (the chart shows the first few by default). */
  readonly lines: readonly LineInfo[];
  readonly xMinUs: number;
  readonly xMaxUs: number;
  /** Samples per line at full resolution. */
  readonly points: number;
  /** Names of values (TCD's states: 0 → "NC: non-congestion"). */
  readonly valueLabels?: Readonly<Record<string, string>>;
  /** Step lines (sampled state) rather than bins drawn as lines. */
  readonly stepped?: boolean;
}

/** One row of `ports.csv`: a port and VL and what its cable leads to. */
export interface PortRow {
  readonly device: string;
  readonly port: number;
  readonly name: string;
  readonly peer: string;
  readonly vl: number;
  readonly bytesForwarded: number;
  readonly meanInputBytes: number;
  readonly maxInputBytes: number;
  readonly blockedUs: number;
  /** The link's rate, when the port map of the run's scenario could be built. */
  readonly rateGbps?: number;
}

/** A table: header and rows of cells (numbers sort as numbers). */
export interface TableData {
  readonly title: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly (string | number)[])[];
}

export interface RunDetail {
  readonly entry: RunEntry;
  /** Totals as label → value lines, then the tables of `summary.txt`. */
  readonly facts: readonly (readonly [string, string])[];
  readonly tables: readonly TableData[];
  readonly summaryText: string;
  readonly series: readonly SeriesInfo[];
  readonly ports: readonly PortRow[];
}

/** A series set's data over a range: x in µs, one y array per line (null: no sample). */
export interface SeriesData {
  readonly name: string;
  readonly x: readonly number[];
  readonly lines: readonly { readonly key: string; readonly y: readonly (number | null)[] }[];
  /** False when buckets were reduced to their extremes for display. */
  readonly full: boolean;
}

/** Everything a static export holds: the manifest, every run's detail and full series. */
export interface ExportData {
  readonly manifest: Manifest;
  readonly runs: Readonly<Record<string, RunDetail>>;
  readonly series: Readonly<Record<string, Readonly<Record<string, SeriesData>>>>;
}
