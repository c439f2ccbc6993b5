import { z } from "zod";

/**
 * Field builders shared by every part of the scenario schema. Each one carries its unit in the
 * message, so `switch.routingLatencyNs: must be a time ≥ 0 ns, got -3` tells the user what is
 * allowed without opening the docs.
 */

const got = (input: unknown) => (input === undefined ? "nothing" : JSON.stringify(input));

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

/** A whole number of bytes ≥ `min`. */
export function bytes(meaning: string, min = 0) {
  const what = `a whole number of bytes ≥ ${min}`;
  return numberField(what)
    .refine((x) => Number.isInteger(x) && x >= min, {
      error: (i) => `must be ${what}, got ${got(i.input)}`,
    })
    .describe(meaning);
}

/** A time (or duration) in the unit of the key's suffix, ≥ `min`. */
export function time(meaning: string, unit: "ns" | "µs", min = 0, exclusive = false) {
  const what = `a time ${exclusive ? ">" : "≥"} ${min} ${unit}`;
  return numberField(what)
    .refine((x) => Number.isFinite(x) && (exclusive ? x > min : x >= min), {
      error: (i) => `must be ${what}, got ${got(i.input)}`,
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
