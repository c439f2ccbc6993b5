import { downsample } from "./downsample.js";
import type { SeriesData } from "./types.js";

/** What a chart asks for: a range in µs, about how many x values, which lines. */
export interface SeriesQuery {
  readonly fromUs?: number;
  readonly toUs?: number;
  readonly points?: number;
  /** Line keys; all lines when absent. */
  readonly lines?: readonly string[];
}

/** The most x values a query may ask for (a chart is at most a few thousand pixels wide). */
export const MAX_POINTS = 20_000;
export const DEFAULT_POINTS = 1_000;

/** Answers a query from a set's full data: the lines asked for, downsampled over the range. */
export function querySeries(data: SeriesData, query: SeriesQuery): SeriesData {
  const wanted = query.lines === undefined ? undefined : new Set(query.lines);
  const picked: SeriesData =
    wanted === undefined ? data : { ...data, lines: data.lines.filter((l) => wanted.has(l.key)) };
  const points = Math.min(MAX_POINTS, Math.max(4, Math.round(query.points ?? DEFAULT_POINTS)));
  return downsample(
    picked,
    query.fromUs ?? Number.NEGATIVE_INFINITY,
    query.toUs ?? Number.POSITIVE_INFINITY,
    points,
  );
}
