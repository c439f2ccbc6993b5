import type { CdfPoints } from "../cdf-points.js";
import { HADOOP_POINTS } from "./hadoop.js";
import { WEBSEARCH_POINTS } from "./websearch.js";

/**
 * The built-in message-size CDFs, by the name a scenario gives (`size: { kind: cdf,
 * distribution: websearch }`). They are TypeScript modules, not data files, so the CLI's and
 * the apps' bundles carry them and nothing is read from disk at run time.
 */
export const BUILT_IN_CDFS = Object.freeze({
  websearch: WEBSEARCH_POINTS,
  hadoop: HADOOP_POINTS,
} satisfies Record<string, CdfPoints>);

export type BuiltInCdf = keyof typeof BUILT_IN_CDFS;

/** The names, in the order `cclab list` and the errors show them. */
export const BUILT_IN_CDF_NAMES = Object.keys(BUILT_IN_CDFS) as [BuiltInCdf, ...BuiltInCdf[]];
