import type { TopLevelSpec } from "vega-lite";
import { FIGURE_CONFIG } from "./render.js";

/** One plot: written as `<name>.svg`, `<name>.png` and its Vega-Lite spec `<name>.vl.json`. */
export interface Figure {
  readonly name: string;
  readonly spec: TopLevelSpec;
}

/** A point of a line: x, y and the series (legend entry) it belongs to. */
export interface LinePoint {
  readonly x: number;
  readonly y: number;
  readonly series: string;
}

/** A band (min–max over the members of an aggregated series) at one x. */
export interface BandPoint {
  readonly x: number;
  readonly lo: number;
  readonly hi: number;
  readonly series: string;
}

export interface LineFigureOptions {
  readonly name: string;
  readonly title: string;
  readonly subtitle?: string;
  readonly xTitle: string;
  readonly yTitle: string;
  readonly legendTitle: string;
  readonly points: readonly LinePoint[];
  readonly bands?: readonly BandPoint[];
  /** Binned series are drawn as steps (a bin's value holds over the whole bin). */
  readonly step?: boolean;
  readonly xScale?: "linear" | "log";
  readonly yDomainMin?: number;
  /**
   * Names of y values (a variable's states, run.json's `queueSeries.valueLabels`): the y axis
   * then has a tick at each named value, showing its name (see {@link namedValuesAxis}).
   */
  readonly yValueLabels?: ReadonlyMap<number, string>;
  /**
   * The x axis spans exactly this range (a run's time axis: 0 to its end). With `step`, each
   * series' last value is drawn on to the range's end, so the last bin shows.
   */
  readonly xDomain?: readonly [number, number];
  /** Ticks at exactly these x values (a few measured sizes rather than a continuum). */
  readonly xTicks?: readonly number[];
  /** A mark at each point as well as the line. */
  readonly pointMarks?: boolean;
}

export const WIDTH = 640;
export const HEIGHT = 300;

/**
 * A line chart with a legend: one line per series, optional min–max bands behind them. The
 * legend keeps the series in first-appearance order so runs and flows read in a stable order.
 */
export function lineFigure(o: LineFigureOptions): Figure {
  const end = o.step === true ? o.xDomain?.[1] : undefined;
  const points = end === undefined ? o.points : extendSteps(o.points, end, (p, x) => ({ ...p, x }));
  const bands =
    end === undefined || o.bands === undefined
      ? o.bands
      : extendSteps(o.bands, end, (b, x) => ({ ...b, x }));
  const order = [...new Set(points.map((p) => p.series))];
  const color = { field: "series", type: "nominal", title: o.legendTitle, sort: order } as const;
  const x = {
    field: "x",
    type: "quantitative",
    title: o.xTitle,
    ...(o.xTicks === undefined ? {} : { axis: { values: [...o.xTicks], format: "," } }),
    scale:
      o.xScale === "log"
        ? { type: "log", nice: false }
        : {
            zero: false,
            nice: false,
            ...(o.xDomain === undefined ? {} : { domain: [...o.xDomain] }),
          },
  } as const;
  const line = {
    data: { values: points as LinePoint[] },
    mark: {
      type: "line",
      strokeWidth: 1.6,
      ...(o.step === true ? { interpolate: "step-after" } : {}),
      ...(o.pointMarks === true ? { point: true } : {}),
    },
    encoding: {
      x,
      y: {
        field: "y",
        type: "quantitative",
        title: o.yTitle,
        ...(o.yValueLabels !== undefined && o.yValueLabels.size > 0
          ? namedValuesAxis(o.yValueLabels, points, o.yDomainMin)
          : o.yDomainMin === undefined
            ? {}
            : { scale: { domainMin: o.yDomainMin } }),
      },
      color,
    },
  } as const;
  const layers =
    bands === undefined || bands.length === 0
      ? [line]
      : [
          {
            data: { values: bands as BandPoint[] },
            mark: {
              type: "area",
              opacity: 0.18,
              ...(o.step === true ? { interpolate: "step-after" } : {}),
            },
            encoding: {
              x,
              y: { field: "lo", type: "quantitative" },
              y2: { field: "hi" },
              color,
            },
          } as const,
          line,
        ];
  return {
    name: o.name,
    spec: {
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      title: o.subtitle === undefined ? o.title : { text: o.title, subtitle: o.subtitle },
      width: WIDTH,
      height: HEIGHT,
      config: FIGURE_CONFIG,
      layer: layers,
    } as TopLevelSpec,
  };
}

/**
 * The y scale and axis of a variable whose values have names: a tick at each named value,
 * labelled with its name (Vega-Lite `axis.values` and `labelExpr`; a value without a name, were
 * one drawn, keeps its number), over a scale that spans every named value and the data, so
 * each name shows whether the run reached that value or not. The scale stays quantitative, so
 * a step line still rises and falls in the values' order; a few pixels of padding keep the
 * lowest and highest values off the plot's edges.
 */
function namedValuesAxis(
  labels: ReadonlyMap<number, string>,
  points: readonly LinePoint[],
  domainMin: number | undefined,
) {
  const values = [...labels.keys()].sort((a, b) => a - b);
  let lo = Math.min(values[0]!, domainMin ?? Number.POSITIVE_INFINITY);
  let hi = values.at(-1)!;
  for (const p of points) {
    if (p.y < lo) lo = p.y;
    if (p.y > hi) hi = p.y;
  }
  // `datum.value === 0 ? "NC: non-congestion" : … : datum.label`; JSON strings are valid
  // string literals of Vega's expression language.
  const labelExpr = values.reduceRight(
    (otherwise, v) => `datum.value === ${v} ? ${JSON.stringify(labels.get(v))} : ${otherwise}`,
    "datum.label",
  );
  return {
    scale: { domain: [lo, hi], nice: false, zero: false, padding: 8 },
    axis: { values, labelExpr },
  };
}

/**
 * A step line ends at its last point's x: each series gets one more point at `end` holding its
 * last value, so the last bin (which starts before `end`) is drawn over its width.
 */
function extendSteps<P extends { readonly x: number; readonly series: string }>(
  points: readonly P[],
  end: number,
  at: (point: P, x: number) => P,
): P[] {
  const last = new Map<string, P>();
  for (const p of points) {
    const seen = last.get(p.series);
    if (seen === undefined || p.x >= seen.x) last.set(p.series, p);
  }
  const extra = [...last.values()].filter((p) => p.x < end).map((p) => at(p, end));
  return [...points, ...extra];
}

/** The unit a time axis is drawn in: µs for short runs, ms or s for long ones. */
export interface TimeAxis {
  readonly unit: "µs" | "ms" | "s";
  readonly fromUs: (us: number) => number;
}

export function timeAxisFor(maxUs: number): TimeAxis {
  if (maxUs >= 2e6) return { unit: "s", fromUs: (us) => us / 1e6 };
  if (maxUs >= 2e4) return { unit: "ms", fromUs: (us) => us / 1e3 };
  return { unit: "µs", fromUs: (us) => us };
}

/**
 * Members grouped into one aggregated series when a figure would have more lines than a reader
 * can tell apart.
 */
export const MAX_LINES = 12;

/**
 * Lines of (x, y) samples keyed by member: one line per member when there are at most
 * {@link MAX_LINES}, else one mean line per aggregate key with a min–max band.
 */
export function linesOrAggregate(
  samples: readonly { x: number; y: number; member: string; aggregate: string }[],
  describe: (aggregate: string, members: number) => string,
): { points: LinePoint[]; bands: BandPoint[]; aggregated: boolean } {
  const members = new Set(samples.map((s) => s.member));
  if (members.size <= MAX_LINES) {
    return {
      points: samples.map((s) => ({ x: s.x, y: s.y, series: s.member })),
      bands: [],
      aggregated: false,
    };
  }
  const membersOf = new Map<string, Set<string>>();
  const cells = new Map<
    string,
    { x: number; key: string; sum: number; n: number; lo: number; hi: number }
  >();
  for (const s of samples) {
    const set = membersOf.get(s.aggregate);
    if (set === undefined) membersOf.set(s.aggregate, new Set([s.member]));
    else set.add(s.member);
    const id = `${s.aggregate}\u0000${s.x}`;
    const cell = cells.get(id);
    if (cell === undefined) {
      cells.set(id, { x: s.x, key: s.aggregate, sum: s.y, n: 1, lo: s.y, hi: s.y });
    } else {
      cell.sum += s.y;
      cell.n++;
      if (s.y < cell.lo) cell.lo = s.y;
      if (s.y > cell.hi) cell.hi = s.y;
    }
  }
  const label = new Map([...membersOf].map(([k, set]) => [k, describe(k, set.size)]));
  const points: LinePoint[] = [];
  const bands: BandPoint[] = [];
  for (const c of cells.values()) {
    const series = label.get(c.key)!;
    points.push({ x: c.x, y: c.sum / c.n, series });
    bands.push({ x: c.x, lo: c.lo, hi: c.hi, series });
  }
  return { points, bands, aggregated: true };
}
