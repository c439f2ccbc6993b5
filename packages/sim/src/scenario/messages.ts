import type { z } from "zod";

/**
 * Messages for the issues a schema gives without one of its own (the traffic patterns', the
 * plugins' parameters): what was given and what is allowed, with the unit the field's name
 * carries, instead of the validation library's wording ("Invalid input: expected number,
 * received string"). Used for every scenario parse (`safeParse(value, { error })`); a field
 * with its own message keeps it.
 */
export function scenarioMessage(issue: z.core.$ZodRawIssue): string | undefined {
  const unit = unitOf(issue.path?.at(-1));
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return `is required (${typeName(issue.expected)}${unit})`;
      return `must be ${typeName(issue.expected)}${unit}, got ${got(issue.input)}`;
    case "unrecognized_keys": {
      const keys = issue.keys.map((k) => `"${k}"`).join(", ");
      const shape = (issue.inst as { _zod?: { def?: { shape?: object } } } | undefined)?._zod?.def
        ?.shape;
      const allowed = shape === undefined ? "" : `; allowed: ${Object.keys(shape).join(", ")}`;
      return `unknown key${issue.keys.length === 1 ? "" : "s"} ${keys}${allowed}`;
    }
    case "too_big":
    case "too_small": {
      const big = issue.code === "too_big";
      const bound = big ? issue.maximum : issue.minimum;
      const op = big ? (issue.inclusive ? "≤" : "<") : issue.inclusive ? "≥" : ">";
      if (issue.origin === "array" || issue.origin === "set") {
        return `must list ${big ? "at most" : "at least"} ${bound} entr${bound === 1 ? "y" : "ies"}, got ${Array.isArray(issue.input) ? issue.input.length : got(issue.input)}`;
      }
      if (issue.origin === "string") {
        return `must have ${big ? "at most" : "at least"} ${bound} characters, got ${got(issue.input)}`;
      }
      return `must be ${op} ${String(bound)}${unit}, got ${got(issue.input)}`;
    }
    case "invalid_value":
      return `must be ${issue.values.length === 1 ? "" : "one of "}${issue.values.map((v) => got(v)).join(", ")}, got ${got(issue.input)}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}${unit}, got ${got(issue.input)}`;
    case "invalid_union":
      return `is not any of the forms this field takes, got ${got(issue.input)}`;
    default:
      return undefined;
  }
}

// What the user gave, as they would write it: JSON shows Infinity and NaN (YAML's .inf, .nan)
// as null.
function got(input: unknown): string {
  if (input === undefined) return "nothing";
  if (typeof input === "number" && !Number.isFinite(input)) return String(input);
  const text = JSON.stringify(input);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function typeName(expected: string): string {
  switch (expected) {
    case "number":
    case "int":
      return "a number";
    case "string":
      return "a string";
    case "boolean":
      return "true or false";
    case "array":
      return "a list";
    case "object":
      return "an object";
    default:
      return expected;
  }
}

// The unit a key names by its suffix (`rateGbps`, `durationUs`, `bufferBytes`), as " Gb/s".
const UNITS: readonly [RegExp, string][] = [
  [/Gbps$/, " Gb/s"],
  [/Ps$/, " ps"],
  [/Ns$/, " ns"],
  [/Us$/, " µs"],
  [/Ms$/, " ms"],
  [/Bytes$/, " bytes"],
  [/Fraction$/, " (a fraction)"],
];

function unitOf(key: PropertyKey | undefined): string {
  if (typeof key !== "string") return "";
  for (const [suffix, unit] of UNITS) if (suffix.test(key)) return unit;
  return "";
}
