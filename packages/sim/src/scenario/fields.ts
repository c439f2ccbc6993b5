import { MAX_TIME_NS, MAX_TIME_US } from "@cclab/core-des";
import { z } from "zod";

/**
 * Field builders shared by every part of the scenario schema. Each one carries its unit in the
 * message, so `switch.routingLatencyNs: must be a time ≥ 0 ns, got -3` tells the user what is
 * allowed without opening the docs.
 */

// What the user gave, as they would write it: JSON shows Infinity and NaN (YAML's .inf, .nan)
// as null. Long values are cut (a message quotes a field, not a whole list); nesting is bounded
// before validation (limits.ts), so JSON.stringify does not overflow the stack.
const got = (input: unknown) => {
  if (input === undefined) return "nothing";
  if (typeof input === "number" && !Number.isFinite(input)) return String(input);
  let text: string;
  try {
    text = JSON.stringify(input) ?? String(input);
  } catch {
    text = typeof input;
  }
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

/** A strict object: an unknown key is an error that lists the allowed keys. */
export function strictObject<Shape extends z.ZodRawShape>(shape: Shape, meaning?: string) {
  const allowed = Object.keys(shape).join(", ");
  const schema = z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === "unrecognized_keys") {
        const keys = issue.keys.map((k) => `"${k}"`).join(", ");
        return `unknown key ${keys}; allowed: ${allowed}`;
      }
      if (issue.code === "invalid_type") return `must be an object with keys ${allowed}`;
      return undefined;
    },
  });
  return meaning === undefined ? schema : schema.describe(meaning);
}

function numberField(what: string) {
  return z.number({ error: (issue) => `must be ${what}, got ${got(issue.input)}` });
}

/** A rate in Gb/s, > 0 and finite. */
export function gbps(meaning: string) {
  const what = "a rate > 0 Gb/s";
  return numberField(what)
    .refine((x) => x > 0 && Number.isFinite(x), {
      error: (i) => `must be ${what}, got ${got(i.input)}`,
    })
    .describe(meaning);
}

/** The largest byte count a field may hold: devices keep sizes and credits in 32-bit integers. */
const MAX_BYTES = 2 ** 31 - 1;

/** A whole number of bytes ≥ `min` (and at most 2^31 − 1). */
export function bytes(meaning: string, min = 0) {
  const what = `a whole number of bytes ≥ ${min}`;
  return numberField(what)
    .refine((x) => Number.isInteger(x) && x >= min, {
      error: (i) => `must be ${what}, got ${got(i.input)}`,
      abort: true,
    })
    .refine((x) => x <= MAX_BYTES, {
      error: (i) => `must be at most ${MAX_BYTES} bytes (2 GiB), got ${got(i.input)}`,
    })
    .describe(meaning);
}

/**
 * A time (or duration) in the unit of the key's suffix, ≥ `min`, and no later than the
 * simulator's largest time (2^53 − 1 ps, about 2.5 hours), which the run could not reach.
 */
export function time(meaning: string, unit: "ns" | "µs", min = 0, exclusive = false) {
  const what = `a time ${exclusive ? ">" : "≥"} ${min} ${unit}`;
  const max = unit === "ns" ? MAX_TIME_NS : MAX_TIME_US;
  return numberField(what)
    .refine((x) => Number.isFinite(x) && (exclusive ? x > min : x >= min), {
      error: (i) => `must be ${what}, got ${got(i.input)}`,
      abort: true,
    })
    .refine((x) => x <= max, {
      error: (i) =>
        `must be at most ${max} ${unit} (the largest time, 2^53 − 1 ps), got ${got(i.input)}`,
    })
    .describe(meaning);
}

/** A whole count in `min..max`. */
export function count(meaning: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  const what =
    max === Number.MAX_SAFE_INTEGER
      ? `a whole number ≥ ${min}`
      : `a whole number in ${min}..${max}`;
  return numberField(what)
    .refine((x) => Number.isInteger(x) && x >= min && x <= max, {
      error: (i) => `must be ${what}, got ${got(i.input)}`,
    })
    .describe(meaning);
}

/** A plain positive number without a unit (a ratio such as alpha or speedup), ≥ `min`. */
export function ratio(meaning: string, min: number, exclusive = false) {
  const what = `a number ${exclusive ? ">" : "≥"} ${min}`;
  return numberField(what)
    .refine((x) => Number.isFinite(x) && (exclusive ? x > min : x >= min), {
      error: (i) => `must be ${what}, got ${got(i.input)}`,
    })
    .describe(meaning);
}

/** One of a fixed set of strings. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T, meaning: string) {
  const allowed = values.map((v) => `"${v}"`).join(", ");
  return z
    .enum(values, { error: (i) => `must be one of ${allowed}, got ${got(i.input)}` })
    .describe(meaning);
}
