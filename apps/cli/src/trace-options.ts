import {
  checkTraceOptions,
  type Resolved,
  type TraceInfo,
  type TraceIssue,
  type TraceOptions,
  type TraceOptionsError,
} from "@cclab/sim";
import { UsageError } from "./errors.js";

/** The `cclab run` options of the packet trace (docs/model.md, "Packet trace"). */
export interface TraceValues {
  trace?: boolean;
  "trace-flows"?: string[];
  "trace-ports"?: string[];
  "trace-from-us"?: string;
  "trace-to-us"?: string;
  "trace-kinds"?: string[];
  "trace-max-rows"?: string;
}

/** The command-line option of each trace filter. */
const OPTION: Record<keyof TraceOptions, string> = {
  flows: "--trace-flows",
  ports: "--trace-ports",
  fromUs: "--trace-from-us",
  toUs: "--trace-to-us",
  kinds: "--trace-kinds",
  maxRows: "--trace-max-rows",
};

const FILTERS = [
  "trace-flows",
  "trace-ports",
  "trace-from-us",
  "trace-to-us",
  "trace-kinds",
  "trace-max-rows",
] as const;

/**
 * The trace `cclab run` asked for (undefined: none), checked against the scenario's fabric
 * before anything runs. Throws a UsageError listing every bad value, each with its option.
 */
export function traceOptionsOf(
  values: TraceValues,
  fabric: Resolved["topology"]["fabric"],
): TraceOptions | undefined {
  const problems: string[] = [];
  if (values.trace !== true) {
    for (const name of FILTERS) {
      if (values[name] !== undefined) {
        problems.push(`--${name}: filters the packet trace; add --trace to record one`);
      }
    }
    if (problems.length > 0) throw usageError(problems);
    return undefined;
  }
  const number = (name: (typeof FILTERS)[number], what: string): number | undefined => {
    const text = values[name] as string | undefined;
    if (text === undefined) return undefined;
    const value = text.trim() === "" ? Number.NaN : Number(text);
    if (Number.isNaN(value)) problems.push(`--${name}: must be ${what}, got "${text}"`);
    return Number.isNaN(value) ? undefined : value;
  };
  // Lists are comma-separated, and each option may be repeated.
  const list = (texts: string[] | undefined) => texts?.flatMap((t) => t.split(","));
  const flows = list(values["trace-flows"])?.map((f) => (/^\s*\d+\s*$/.test(f) ? Number(f) : f));
  const ports = list(values["trace-ports"]);
  const kinds = list(values["trace-kinds"]);
  const fromUs = number("trace-from-us", "a time in µs");
  const toUs = number("trace-to-us", "a time in µs");
  const maxRows = number("trace-max-rows", "a whole number of rows");
  const options: TraceOptions = {
    ...(flows === undefined ? {} : { flows }),
    ...(ports === undefined ? {} : { ports }),
    ...(kinds === undefined ? {} : { kinds }),
    ...(fromUs === undefined ? {} : { fromUs }),
    ...(toUs === undefined ? {} : { toUs }),
    ...(maxRows === undefined ? {} : { maxRows }),
  };
  problems.push(...checkTraceOptions(options, fabric).issues.map(problem));
  if (problems.length > 0) throw usageError(problems);
  return options;
}

/** The same message for what only the built network can check (flow ids and its VLs). */
export function traceUsageError(error: TraceOptionsError): UsageError {
  return usageError(error.issues.map(problem));
}

/** What to say on stderr at the end of a run whose trace the bound cut; undefined otherwise. */
export function traceNote(info: TraceInfo | undefined): string | undefined {
  if (info === undefined || !info.truncated) return undefined;
  return `cclab run: ${info.file} is truncated: it holds the first ${info.rows} matching packet events only; ${info.omittedRows} later ones were not written (--trace-max-rows ${info.maxRows}; narrow the filters or raise it)\n`;
}

function problem(issue: TraceIssue): string {
  return `${OPTION[issue.option]}: ${issue.message}`;
}

function usageError(problems: readonly string[]): UsageError {
  return new UsageError(
    `cclab run: the trace options are not valid:\n${problems.map((p) => `  ${p}`).join("\n")}`,
  );
}
