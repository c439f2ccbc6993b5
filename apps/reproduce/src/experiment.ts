import type { Figure } from "@cclab/plot";

/** One published figure set beside ours. */
export interface Finding {
  /** What is compared, e.g. "victim F1, all stages". */
  readonly what: string;
  /** The paper's figure, as published (with its unit). */
  readonly paper: string;
  /** Ours, measured. */
  readonly ours: string;
  /** Our figure against the paper's, e.g. "+1.0 %", or a qualitative verdict. */
  readonly deviation: string;
  /** Whether ours reproduces the paper's claim within the tolerance stated in `tolerance`. */
  readonly holds: boolean;
  readonly tolerance: string;
}

export interface ExperimentOutcome {
  readonly findings: readonly Finding[];
  /** Extra tables (markdown) for the report, e.g. a parameter sweep. */
  readonly tables?: readonly string[];
  /**
   * Figures of what the experiment measured (Vega-Lite specs with their data), drawn beside
   * its tables: the report renders each to `<report folder>/reproductions/<id>/<name>.png`.
   */
  readonly figures?: readonly Figure[];
  /** Why ours differs, when some finding does not hold (text that depends on the run). */
  readonly explanation?: string;
}

export interface Experiment {
  readonly id: string;
  readonly title: string;
  /** Seed file and lines. */
  readonly source: string;
  /** Scenario files (relative to `scenarios/`). */
  readonly scenarios: readonly string[];
  /**
   * Text that does not depend on the run (setup, caveats, measured context): rendered after the
   * outcome's explanation. It lives in the code, not in the saved outcome, so a report rebuilt
   * from saved outcomes (`--report`) always shows the current text.
   */
  readonly notes?: string;
  /**
   * Runs the experiment with every time scaled by `scale` (1: as shipped; tests use less) and
   * compares. `quick` trims parameter sweeps to their corners.
   */
  run(options: { scale: number; quick: boolean }): Promise<ExperimentOutcome>;
}

/** `x` with `digits` decimals. */
export const fmt = (x: number, digits = 2): string =>
  Number.isFinite(x) ? x.toFixed(digits) : "n/a";

/** A fraction as a signed percentage with one decimal, e.g. 0.41 → "+41.0 %", −0.052 → "−5.2 %". */
export const signedPct = (fraction: number): string =>
  `${fraction >= 0 ? "+" : "−"}${fmt(Math.abs(fraction) * 100, 1)} %`;

/** Relative deviation of `ours` from `paper`, signed, in %. */
export const pct = (ours: number, paper: number): string =>
  signedPct((ours - paper) / Math.abs(paper));

/** Whether `ours` is within the relative tolerance `tol` of `paper`: |ours − paper| / |paper| ≤ tol. */
export const within = (ours: number, paper: number, tol: number): boolean =>
  Math.abs(ours - paper) / Math.abs(paper) <= tol;

/** A markdown table with `header` and one row per entry of `rows`. */
export const mdTable = (header: readonly string[], rows: readonly (readonly string[])[]): string =>
  [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
