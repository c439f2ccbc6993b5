import { MAX_TIME_PS, nsToPs, PS_PER_NS } from "@cclab/core-des";
import { z } from "zod";
import { makeMessage, slError } from "./message.js";
import { definePattern } from "./pattern.js";
import { timeNs } from "./time-fields.js";
import type { TrafficMessage } from "./types.js";

/** Columns a flow trace must have (`scenarios/bench/uniform256-flows.csv`). */
const REQUIRED = ["src", "dst", "bytes", "startNs"] as const;
/** Columns a trace may add. */
const OPTIONAL = ["sl", "group"] as const;
/** Problems reported at most: a bad file usually repeats one mistake on every line. */
const MAX_ERRORS = 10;

/** A parsed trace: one flow (message) per row, in non-decreasing start time. */
export interface FlowTrace {
  readonly length: number;
  readonly src: Int32Array;
  readonly dst: Int32Array;
  readonly bytes: Float64Array;
  readonly startPs: Float64Array;
  readonly sl: Int32Array | undefined;
  /** Per row; undefined where the column is absent or the field is empty. */
  readonly group: readonly (string | undefined)[] | undefined;
}

/**
 * Parses a flow CSV: a header naming the columns `src,dst,bytes,startNs` (any order, plus
 * optional `sl` and `group`), then one flow per line. Blank lines and lines starting with `#`
 * are skipped; fields are plain (no quoting). Every row is checked (hosts in 0..hostCount − 1
 * and different, bytes a whole number ≥ 1, startNs a number ≥ 0, sl below `slCount`); a
 * `RangeError` lists the first problems with their line numbers (`flows.csv:12: dst = 300 is
 * not a host (0..255)`). Rows out of time order are sorted by start time, stably (equal times
 * keep file order).
 */
export function parseFlowTrace(
  text: string,
  hostCount: number,
  name = "trace",
  shiftNs = 0,
  slCount = Number.POSITIVE_INFINITY,
): FlowTrace {
  const lines = text.split(/\r?\n/);
  const errors: string[] = [];
  let columns: string[] | undefined;
  const index = new Map<string, number>();
  const src: number[] = [];
  const dst: number[] = [];
  const bytes: number[] = [];
  const startPs: number[] = [];
  const sl: number[] = [];
  const group: (string | undefined)[] = [];
  const fail = (line: number, message: string) => {
    if (errors.length < MAX_ERRORS) errors.push(`${name}:${line}: ${message}`);
    else if (errors.length === MAX_ERRORS) errors.push("… and more");
  };
  for (let l = 0; l < lines.length; l++) {
    const raw = lines[l]!.trim();
    if (raw === "" || raw.startsWith("#")) continue;
    const fields = raw.split(",").map((f) => f.trim());
    const lineNo = l + 1;
    if (columns === undefined) {
      columns = fields;
      fields.forEach((c, i) => {
        if (index.has(c)) fail(lineNo, `column ${c} appears twice`);
        index.set(c, i);
      });
      const known: readonly string[] = [...REQUIRED, ...OPTIONAL];
      for (const c of fields) {
        if (!known.includes(c)) fail(lineNo, `unknown column ${c} (known: ${known.join(", ")})`);
      }
      for (const c of REQUIRED) {
        if (!index.has(c)) fail(lineNo, `header lacks column ${c} (want ${REQUIRED.join(",")})`);
      }
      if (errors.length > 0) break;
      continue;
    }
    if (fields.length !== columns.length) {
      fail(lineNo, `${fields.length} fields, the header has ${columns.length}`);
      continue;
    }
    const field = (c: string) => fields[index.get(c)!]!;
    const host = (c: "src" | "dst"): number | undefined => {
      const v = Number(field(c));
      if (field(c) === "" || !Number.isInteger(v) || v < 0 || v >= hostCount) {
        fail(lineNo, `${c} = ${field(c)} is not a host (0..${hostCount - 1})`);
        return undefined;
      }
      return v;
    };
    const s = host("src");
    const d = host("dst");
    if (s !== undefined && s === d) fail(lineNo, `src and dst are both host ${s}`);
    const b = Number(field("bytes"));
    if (field("bytes") === "" || !Number.isSafeInteger(b) || b < 1) {
      fail(lineNo, `bytes = ${field("bytes")} is not a whole number ≥ 1`);
    }
    const t = Number(field("startNs")) + shiftNs;
    if (field("startNs") === "" || !(t >= shiftNs)) {
      fail(lineNo, `startNs = ${field("startNs")} is not a time ≥ 0 in ns`);
    } else if (t * PS_PER_NS > MAX_TIME_PS) {
      fail(lineNo, `startNs = ${field("startNs")} is past the largest time (2^53 − 1 ps)`);
    }
    if (index.has("sl")) {
      const v = Number(field("sl"));
      if (field("sl") === "" || !Number.isInteger(v) || v < 0) {
        fail(lineNo, `sl = ${field("sl")} is not a whole number ≥ 0`);
      } else if (v >= slCount) fail(lineNo, slError("sl", v, slCount));
      sl.push(v);
    }
    if (index.has("group")) group.push(field("group") || undefined);
    src.push(s ?? 0);
    dst.push(d ?? 0);
    bytes.push(b);
    startPs.push(errors.length === 0 ? nsToPs(t) : 0);
  }
  if (columns === undefined)
    fail(lines.length, `empty trace (want a header ${REQUIRED.join(",")})`);
  if (errors.length > 0) throw new RangeError(errors.join("\n"));

  const n = startPs.length;
  let order: number[] | undefined;
  for (let i = 1; i < n; i++) {
    if (startPs[i]! < startPs[i - 1]!) {
      // Array.prototype.sort is stable (ES2019), so equal start times keep file order.
      order = Array.from({ length: n }, (_, k) => k).sort((a, b) => startPs[a]! - startPs[b]!);
      break;
    }
  }
  const pick = (values: readonly number[]) =>
    order === undefined ? values : order.map((k) => values[k]!);
  return {
    length: n,
    src: Int32Array.from(pick(src)),
    dst: Int32Array.from(pick(dst)),
    bytes: Float64Array.from(pick(bytes)),
    startPs: Float64Array.from(pick(startPs)),
    sl: index.has("sl") ? Int32Array.from(pick(sl)) : undefined,
    group: index.has("group")
      ? order === undefined
        ? group
        : order.map((k) => group[k])
      : undefined,
  };
}

const params = z.strictObject({
  path: z
    .string()
    .min(1)
    .describe(
      "flow CSV with header src,dst,bytes,startNs (optional sl, group), relative to the scenario",
    ),
  shiftNs: timeNs("≥ 0").default(0).describe("added to every flow's startNs, ns"),
});

// The last trace parsed, by its text and parameters: a run checks the rows before it starts
// (cclab validate, resolveScenario) and again when it builds the source, and each parse of the
// benchmark's 16 k rows costs about 30 ms.
let lastParsed:
  | {
      text: string;
      hostCount: number;
      name: string;
      shiftNs: number;
      slCount: number;
      trace: FlowTrace;
    }
  | undefined;

function parsedTrace(
  text: string,
  hostCount: number,
  name: string,
  shiftNs: number,
  slCount = Number.POSITIVE_INFINITY,
): FlowTrace {
  const last = lastParsed;
  if (
    last !== undefined &&
    last.text === text &&
    last.hostCount === hostCount &&
    last.name === name &&
    last.shiftNs === shiftNs &&
    last.slCount === slCount
  ) {
    return last.trace;
  }
  const trace = parseFlowTrace(text, hostCount, name, shiftNs, slCount);
  lastParsed = { text, hostCount, name, shiftNs, slCount, trace };
  return trace;
}

export const trace = definePattern({
  name: "trace",
  description: "trace replay: one message per row of a flow CSV (src,dst,bytes,startNs)",
  params,
  finite: true,
  // The rows are checked before the run where the scenario's files can be read (cclab
  // validate and run do), so a bad row is a scenario error, not a failed run.
  check: (p, ctx) => {
    if (ctx.readFile === undefined) return [];
    let text: string;
    try {
      text = ctx.readFile(p.path);
    } catch (error) {
      return [`path: cannot read ${p.path} (${(error as Error).message})`];
    }
    try {
      parsedTrace(text, ctx.hostCount, p.path, p.shiftNs, ctx.slCount);
    } catch (error) {
      if (error instanceof RangeError) return [error.message];
      throw error;
    }
    return [];
  },
  create: (p, ctx) => {
    const flows = parsedTrace(ctx.readFile(p.path), ctx.hostCount, p.path, p.shiftNs, ctx.slCount);
    let i = 0;
    return {
      next(): TrafficMessage | undefined {
        if (i >= flows.length || !(flows.startPs[i]! < ctx.endPs)) return undefined;
        const k = i++;
        return makeMessage(flows.src[k]!, flows.dst[k]!, flows.bytes[k]!, flows.startPs[k]!, {
          sl: flows.sl?.[k],
          group: flows.group?.[k],
        });
      },
    };
  },
});
