/**
 * What travels between a sweep's coordinator and its workers (threads, or `cclab worker`
 * processes through Redis), checked on arrival: a worker's result is data from another machine,
 * so its file names and its summary are checked before anything is written.
 */
import { RESULT_FILES, summarySchema } from "@cclab/sim";
import { z } from "zod";
import type { PointOutcome, PointTask } from "./run-point.js";
import { sweepSchema } from "./sweep-file.js";

/**
 * The only names a point's result may carry: the files a run writes (@cclab/sim's
 * RESULT_FILES). Plain names, so a result cannot write outside its point's directory.
 */
export const RESULT_FILE_NAMES: readonly string[] = RESULT_FILES;

/** A job's payload. The scenario (`document`) is checked by resolveScenario when it runs. */
export const pointTaskSchema = z.strictObject({
  sweep: sweepSchema.shape.name,
  pointId: z.string().regex(/^p\d+$/),
  document: z.unknown(),
  baseDir: z.string().min(1),
  keepSeries: z.boolean(),
});

const resultFileName = z.string().refine((name) => RESULT_FILE_NAMES.includes(name), {
  message: `not a file a run writes (${RESULT_FILE_NAMES.join(", ")})`,
});

/** A point's result as a worker returns it. */
export const pointOutcomeSchema = z.discriminatedUnion("status", [
  z.strictObject({
    status: z.literal("complete"),
    files: z.array(z.tuple([resultFileName, z.string()])),
  }),
  z.strictObject({ status: z.literal("failed"), error: z.string() }),
]);

/** Checks a job payload; a short reason when it is not a point of a sweep. */
export function checkTask(data: unknown): { task: PointTask } | { error: string } {
  const parsed = pointTaskSchema.safeParse(data);
  if (parsed.success) return { task: parsed.data };
  return { error: `malformed job: ${shortIssues(parsed.error)}` };
}

/**
 * Checks a worker's result: file names from {@link RESULT_FILE_NAMES}, each at most once, and a
 * `summary.json` that matches the summary schema. A result that fails is a failed point.
 */
export function checkOutcome(raw: unknown): { outcome: PointOutcome; summary?: unknown } {
  const parsed = pointOutcomeSchema.safeParse(raw);
  if (!parsed.success)
    return failed(`invalid result from the worker: ${shortIssues(parsed.error)}`);
  const outcome = parsed.data;
  if (outcome.status === "failed") return { outcome };
  const names = outcome.files.map(([name]) => name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) return failed(`invalid result from the worker: ${twice} sent twice`);
  const summaryText = outcome.files.find(([name]) => name === "summary.json")?.[1];
  if (summaryText === undefined) return failed("invalid result from the worker: no summary.json");
  let summary: unknown;
  try {
    summary = JSON.parse(summaryText);
  } catch {
    return failed("invalid result from the worker: summary.json is not JSON");
  }
  const checked = summarySchema.safeParse(summary);
  if (!checked.success) {
    return failed(`invalid summary.json from the worker: ${shortIssues(checked.error)}`);
  }
  return { outcome, summary };
}

function failed(error: string): { outcome: PointOutcome } {
  return { outcome: { status: "failed", error } };
}

/** The first few issues on one line: enough to find the fault, short enough for a table cell. */
function shortIssues(error: z.ZodError): string {
  const issues = error.issues.slice(0, 3).map((i) => {
    const path = i.path.map(String).join(".");
    return path === "" ? i.message : `${path}: ${i.message}`;
  });
  const more = error.issues.length > 3 ? ` (+${error.issues.length - 3} more)` : "";
  return `${issues.join("; ")}${more}`.slice(0, 500);
}
