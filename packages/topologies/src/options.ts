/**
 * Checks shared by the builders. Options often come from scenario files, not only from typed
 * code, so each value is checked at run time; every message names the builder, the option and
 * what is allowed (CONTRIBUTING.md: "Bad input gets a RangeError … naming the field").
 */

/** Link parameters every builder accepts, with their units in the names. */
export interface LinkOptions {
  /** Data rate of each direction of every cable, in Gb/s (> 0). */
  readonly rateGbps?: number;
  /** Propagation latency of each direction of every cable, in ns (≥ 0). */
  readonly latencyNs?: number;
}

/**
 * Link defaults of the generic builders (`singleSwitch`, `parkingLot`, `twoLevelFatTree`,
 * generic specs): the benchmark fabric of `scenarios/bench/uniform256.yaml` (100 Gb/s, 1 µs).
 * The paper builders use their paper's values instead.
 */
export const GENERIC_LINK_DEFAULTS = { rateGbps: 100, latencyNs: 1000 } as const;

type OptionBag = Readonly<Record<string, unknown>>;

/** `opts` as a record, after rejecting non-objects and keys the builder does not know. */
export function optionBag(fn: string, opts: unknown, allowed: readonly string[]): OptionBag {
  if (opts === undefined) return {};
  if (typeof opts !== "object" || opts === null || Array.isArray(opts)) {
    throw new TypeError(`${fn}: options must be an object, got ${describeValue(opts)}`);
  }
  for (const key of Object.keys(opts)) {
    if (!allowed.includes(key)) {
      throw new TypeError(`${fn}: unknown option "${key}" (allowed: ${allowed.join(", ")})`);
    }
  }
  return opts as OptionBag;
}

function requireNumber(fn: string, name: string, value: unknown): number {
  if (typeof value !== "number" || Number.isNaN(value)) {
    throw new TypeError(`${fn}: option "${name}" must be a number, got ${describeValue(value)}`);
  }
  return value;
}

/** A data rate in Gb/s: finite and > 0. */
export function rateOption(fn: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const x = requireNumber(fn, name, value);
  if (!(x > 0) || !Number.isFinite(x)) {
    throw new RangeError(`${fn}: option "${name}" must be a finite rate > 0 Gb/s, got ${x}`);
  }
  return x;
}

/** A propagation latency in ns: finite and ≥ 0. */
export function latencyOption(fn: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const x = requireNumber(fn, name, value);
  if (!(x >= 0) || !Number.isFinite(x)) {
    throw new RangeError(`${fn}: option "${name}" must be a finite latency ≥ 0 ns, got ${x}`);
  }
  return x;
}

/** An integer in [min, max]; `fallback` when absent, or required when `fallback` is undefined. */
export function intOption(
  fn: string,
  name: string,
  value: unknown,
  range: { readonly min: number; readonly max?: number; readonly fallback?: number },
): number {
  if (value === undefined) {
    if (range.fallback !== undefined) return range.fallback;
    throw new TypeError(`${fn}: option "${name}" is required (${allowedInts(range)})`);
  }
  const x = requireNumber(fn, name, value);
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isInteger(x) || x < range.min || x > max) {
    throw new RangeError(`${fn}: option "${name}" must be ${allowedInts(range)}, got ${x}`);
  }
  return x;
}

function allowedInts(range: { readonly min: number; readonly max?: number }): string {
  return range.max === undefined
    ? `an integer ≥ ${range.min}`
    : `an integer in ${range.min}..${range.max}`;
}

/** One of a fixed set of strings. */
export function choiceOption<T extends string>(
  fn: string,
  name: string,
  value: unknown,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw new TypeError(
      `${fn}: option "${name}" must be one of ${allowed.map((a) => `"${a}"`).join(", ")}, got ${describeValue(value)}`,
    );
  }
  return value as T;
}

/** Distinct non-empty names, exactly `count` of them; `fallback(i)` names them when absent. */
export function namesOption(
  fn: string,
  name: string,
  value: unknown,
  count: number,
  fallback: (i: number) => string,
): string[] {
  if (value === undefined) return Array.from({ length: count }, (_, i) => fallback(i));
  if (!Array.isArray(value)) {
    throw new TypeError(
      `${fn}: option "${name}" must be an array of strings, got ${describeValue(value)}`,
    );
  }
  if (value.length !== count) {
    throw new RangeError(`${fn}: option "${name}" must hold ${count} names, got ${value.length}`);
  }
  const seen = new Set<string>();
  return value.map((n: unknown, i) => {
    if (typeof n !== "string" || n.length === 0) {
      throw new TypeError(
        `${fn}: option "${name}[${i}]" must be a non-empty string, got ${describeValue(n)}`,
      );
    }
    if (seen.has(n)) throw new RangeError(`${fn}: option "${name}[${i}]" repeats the name "${n}"`);
    seen.add(n);
    return n;
  });
}

/** A short, safe rendering of a bad value for an error message. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string")
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "object") return "an object";
  return String(value);
}
