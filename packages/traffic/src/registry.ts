import { z } from "zod";
import { movingTrees, silentTrees, windyTrees } from "./congestion-trees.js";
import { hotspot } from "./hotspot.js";
import { hotspotBackground } from "./hotspot-background.js";
import { impulse } from "./impulse.js";
import { onOff } from "./onoff.js";
import type { TrafficPattern } from "./pattern.js";
import { scheduled } from "./scheduled.js";
import { trace } from "./trace.js";
import type { TrafficContext, TrafficSource } from "./types.js";
import { uniform } from "./uniform.js";

/** The built-in patterns by scenario name (`traffic: [{ pattern: "uniform", … }]`). */
export const TRAFFIC_PATTERNS: { readonly [name: string]: TrafficPattern } = Object.freeze({
  [uniform.name]: uniform,
  [hotspot.name]: hotspot,
  [hotspotBackground.name]: hotspotBackground,
  [impulse.name]: impulse,
  [onOff.name]: onOff,
  [scheduled.name]: scheduled,
  [silentTrees.name]: silentTrees,
  [windyTrees.name]: windyTrees,
  [movingTrees.name]: movingTrees,
  [trace.name]: trace,
});

/** A traffic entry of a scenario: a pattern name and that pattern's parameters. */
export type TrafficEntry = { readonly pattern: string } & { readonly [key: string]: unknown };

/**
 * The schema of one scenario traffic entry: a union of every pattern's parameters
 * discriminated by `pattern` (each pattern's strict schema with `pattern: <its name>` added).
 */
export function trafficEntrySchema(
  patterns: { readonly [name: string]: TrafficPattern } = TRAFFIC_PATTERNS,
) {
  const options = Object.entries(patterns).map(([name, p]) =>
    p.params.extend({ pattern: z.literal(name).describe("traffic pattern") }),
  );
  if (options.length === 0) throw new RangeError("no traffic patterns to choose from");
  return z.discriminatedUnion("pattern", options as [(typeof options)[0], ...typeof options]);
}

/**
 * Builds the source of one traffic entry: looks up its pattern, validates the parameters
 * (a `ZodError` for schema errors, a `RangeError` for `check` errors) and creates the source.
 * The runner passes each entry a `ctx.rng` split by the entry (e.g. `traffic/0`), so entries
 * are independent of each other.
 */
export function createTrafficSource(
  entry: TrafficEntry,
  ctx: TrafficContext,
  patterns: { readonly [name: string]: TrafficPattern } = TRAFFIC_PATTERNS,
): TrafficSource {
  const { pattern: name, ...raw } = entry;
  const pattern = Object.hasOwn(patterns, name) ? patterns[name] : undefined;
  if (pattern === undefined) {
    throw new RangeError(
      `unknown traffic pattern "${name}" (known: ${Object.keys(patterns).join(", ")})`,
    );
  }
  return pattern.create(pattern.params.parse(raw), ctx);
}
