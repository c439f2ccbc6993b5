import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import {
  forbiddenKeyMessage,
  parseScenarioText,
  readScenarioFile,
  ScenarioError,
  type ScenarioIssue,
} from "@cclab/sim";
import { z } from "zod";

/** A sweep file that cannot run: every problem, with the path of its field. */
export class SweepError extends ScenarioError {
  constructor(issues: readonly ScenarioIssue[]) {
    super(issues);
    this.name = "SweepError";
  }
}

const finite = (what: string) => z.number({ error: `${what} must be a number` }).finite();

/** An axis: a list of values, an arithmetic range, or a geometric one. */
const axisSchema = z.union(
  [
    z.array(z.unknown()).min(1, { error: "an axis needs at least one value" }),
    z.strictObject({
      from: finite("from"),
      to: finite("to"),
      step: finite("step").positive({ error: "step must be > 0" }),
    }),
    z.strictObject({
      from: finite("from").positive({ error: "from must be > 0 for a geometric range" }),
      to: finite("to").positive({ error: "to must be > 0 for a geometric range" }),
      factor: finite("factor").gt(1, { error: "factor must be > 1" }),
    }),
  ],
  {
    error:
      "an axis is a list of values, {from, to, step} (arithmetic, both ends included) or {from, to, factor} (geometric)",
  },
);

const seedSchema = z
  .number()
  .int()
  .min(0)
  .max(2 ** 32 - 1);

export const sweepSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, { error: "use letters, digits, '.', '_' and '-' (it names files)" })
    .describe("the sweep's name (default output directory: results/<name>)"),
  description: z.string().optional(),
  base: z.string().min(1).describe("the base scenario file, relative to the sweep file"),
  set: z
    .record(z.string(), z.unknown())
    .default({})
    .describe("fields set on every point (scenario paths as in --set: run.durationUs)"),
  axes: z
    .record(z.string(), axisSchema)
    .refine((axes) => Object.keys(axes).length > 0, { error: "give at least one axis" })
    .describe(
      "scenario paths and their values; every combination is a point (first axis outermost)",
    ),
  seeds: z
    .union([
      z.array(seedSchema).min(1),
      z.strictObject({ count: z.number().int().min(1), from: seedSchema.default(1) }),
    ])
    .optional()
    .describe(
      "repetitions of every point: a list of seeds or {count, from}; default: the base scenario's seed",
    ),
  columns: z
    .array(z.string())
    .default([])
    .describe("extra summary.json paths for the table (groups.<name>.… picks a group by name)"),
  plot: z
    .strictObject({
      metrics: z.array(z.string()).min(1).optional(),
    })
    .default({})
    .describe(
      "table columns to plot over the axes (default: each group's meanGbps and totals.windowGbps)",
    ),
  keepSeries: z
    .boolean()
    .default(false)
    .describe("keep every point's CSV series (default: summaries only)"),
});

export type SweepFile = z.output<typeof sweepSchema>;

/** A sweep file read and checked, with its base scenario document. */
export interface LoadedSweep {
  readonly file: string;
  readonly sweep: SweepFile;
  /** The base scenario's path and directory (its trace files resolve from there). */
  readonly basePath: string;
  readonly baseDir: string;
  readonly baseDocument: unknown;
}

/** Reads a sweep file (YAML or JSON) and its base scenario; throws {@link SweepError}. */
export function readSweepFile(file: string): LoadedSweep {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new SweepError([
      {
        path: "",
        message: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      },
    ]);
  }
  const parsed = sweepSchema.safeParse(parseScenarioText(text, file));
  if (!parsed.success) {
    throw new SweepError(
      parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
    );
  }
  const sweep = parsed.data;
  const issues: ScenarioIssue[] = [];
  // Paths are --set paths: a prototype key in one would reach Object.prototype (limits.ts).
  for (const [section, paths] of [
    ["set", Object.keys(sweep.set)],
    ["axes", Object.keys(sweep.axes)],
  ] as const) {
    for (const path of paths) {
      const refused = path
        .split(/[.[\]]/)
        .map(forbiddenKeyMessage)
        .find((m) => m !== undefined);
      if (refused !== undefined) issues.push({ path: `${section}.${path}`, message: refused });
    }
  }
  for (const path of Object.keys(sweep.axes)) {
    if (path === "seed")
      issues.push({ path: "axes.seed", message: "sweep seeds with `seeds:`, not as an axis" });
    if (Object.hasOwn(sweep.set, path)) {
      issues.push({
        path: `set.${path}`,
        message: "is also an axis; a field is either set or swept",
      });
    }
  }
  if (issues.length > 0) throw new SweepError(issues);
  const basePath = resolve(dirname(file), sweep.base);
  let loaded: ReturnType<typeof readScenarioFile>;
  try {
    loaded = readScenarioFile(basePath);
  } catch (error) {
    if (error instanceof ScenarioError) {
      throw new SweepError(
        error.issues.map((i) => ({
          path: "base",
          message: `${basePath}: ${i.path === "" ? "" : `${i.path}: `}${i.message}`,
        })),
      );
    }
    throw error;
  }
  return { file, sweep, basePath, baseDir: loaded.baseDir, baseDocument: loaded.document };
}
