import type { z } from "zod";
import type { BudgetStream, TrafficContext, TrafficSource } from "./types.js";

/**
 * The parameter schema of a pattern: a strict zod object (unknown keys are errors), so that a
 * misspelt scenario key is reported instead of silently ignored. It never has a `pattern` key:
 * the scenario runner adds that as the discriminant of its union of all patterns.
 */
export type PatternParams = z.ZodObject<z.ZodRawShape, z.core.$strict>;

/** What a pattern's checks may know before a run starts (the fabric is not built yet). */
export interface CheckContext {
  readonly hostCount: number;
  /**
   * Service levels (IB) or priorities (PFC) of the fabric: a message's `sl` must be below it.
   * Absent: not checked here (the host refuses such a message when it is queued).
   */
  readonly slCount?: number;
  /**
   * Reads a file named in a scenario, relative to the scenario file, so that checks can look
   * inside it (the rows of a trace). Absent when there is no scenario file to resolve against:
   * those checks then happen when the source is built.
   */
  readFile?(path: string): string;
}

// Method syntax makes the parameter bivariant, so that a pattern with a specific schema is
// still a `TrafficPattern` (the registry's element type) under `strictFunctionTypes`.
type FiniteFn<P> = { bivarianceHack(params: P): boolean }["bivarianceHack"];

/** A named workload generator: its parameter schema, checks and source factory. */
export interface TrafficPattern<S extends PatternParams = PatternParams> {
  /** The scenario name, e.g. `uniform`. */
  readonly name: string;
  /** One line, for `cclab list`. */
  readonly description: string;
  /** Strict zod object schema of the parameters, each described, with defaults. */
  readonly params: S;
  /**
   * Whether the pattern ends by itself (so a run may last "until every message completes").
   * Use {@link isFinitePattern} rather than reading this directly.
   */
  readonly finite: boolean | FiniteFn<z.output<S>>;
  /**
   * Checks that need the fabric's size (host indices in range, enough hosts, time windows in
   * order). Returns one message per problem, each naming the field, e.g.
   * `senders[3] = 300 is not a host (0..255)`; empty when the parameters are usable.
   */
  check(params: z.output<S>, ctx: CheckContext): string[];
  /**
   * Builds the message source. Throws a `RangeError` with the messages of {@link check}, and
   * when the pattern would never end (not finite and `ctx.endPs` is `Infinity`).
   */
  create(params: z.output<S>, ctx: TrafficContext): TrafficSource;
  /**
   * For greedy patterns with time budgets: the same traffic as per-sender streams that a
   * runner releases on demand ({@link BudgetStream}); `undefined` when the parameters ask for
   * the open-loop source of `create`. Checked like `create`.
   */
  budgetStreams?(params: z.output<S>, ctx: TrafficContext): BudgetStream[] | undefined;
}

/** What {@link definePattern} needs: the pattern without the checks `create` gets for free. */
export interface PatternSpec<S extends PatternParams> {
  readonly name: string;
  readonly description: string;
  readonly params: S;
  readonly finite: boolean | ((params: z.output<S>) => boolean);
  /** Checks beyond the schema; see {@link TrafficPattern.check}. */
  readonly check?: (params: z.output<S>, ctx: CheckContext) => string[];
  /** How to bound the pattern, for the error when it would never end (default: set stopNs). */
  readonly howToEnd?: string;
  /** Builds the source; called only once the checks have passed. */
  readonly create: (params: z.output<S>, ctx: TrafficContext) => TrafficSource;
  /** Builds budget streams (see {@link TrafficPattern.budgetStreams}); after the checks. */
  readonly budgetStreams?: (params: z.output<S>, ctx: TrafficContext) => BudgetStream[] | undefined;
}

/** Whether `pattern` with `params` ends by itself. */
export function isFinitePattern<S extends PatternParams>(
  pattern: TrafficPattern<S>,
  params: z.output<S>,
): boolean {
  const finite = pattern.finite;
  return typeof finite === "boolean" ? finite : finite(params);
}

/**
 * Declares a pattern with its parameter types inferred from the schema. The returned
 * `create` runs `check` first and refuses an endless pattern in a run without an end, so no
 * pattern has to repeat those rules.
 */
export function definePattern<S extends PatternParams>(spec: PatternSpec<S>): TrafficPattern<S> {
  const check = (params: z.output<S>, ctx: CheckContext): string[] => {
    if (!Number.isSafeInteger(ctx.hostCount) || ctx.hostCount < 2) {
      return [`the fabric has ${ctx.hostCount} hosts; traffic needs at least 2`];
    }
    return spec.check ? spec.check(params, ctx) : [];
  };
  const usable = (params: z.output<S>, ctx: TrafficContext): void => {
    const errors = check(params, ctx);
    if (errors.length > 0) {
      throw new RangeError(`traffic pattern ${spec.name}: ${errors.join("; ")}`);
    }
    if (ctx.endPs === Number.POSITIVE_INFINITY && !isFinitePattern(pattern, params)) {
      throw new RangeError(
        `traffic pattern ${spec.name} never ends by itself: ${spec.howToEnd ?? "set stopNs"}, or give the run an end time`,
      );
    }
  };
  const budgetStreams = spec.budgetStreams;
  const pattern: TrafficPattern<S> = {
    name: spec.name,
    description: spec.description,
    params: spec.params,
    finite: spec.finite,
    check,
    create(params, ctx) {
      usable(params, ctx);
      return spec.create(params, ctx);
    },
    ...(budgetStreams === undefined
      ? {}
      : {
          budgetStreams(params: z.output<S>, ctx: TrafficContext) {
            usable(params, ctx);
            return budgetStreams(params, ctx);
          },
        }),
  };
  return pattern;
}
