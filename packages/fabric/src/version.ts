/**
 * Versions of the plugin contract (the CC part and queueing part interfaces of this package,
 * not the npm package's own version), and how a plugin states which of them it works with.
 *
 * Policy, semantic versioning of the contract:
 * - a minor version only adds optional members (a hook, a context service a part may use when
 *   present): a plugin written for 3.0 runs unchanged on 3.1, so a plugin states a caret range
 *   (`"^3.0.0"`) or its major (`3`);
 * - a major version removes a member or changes what one means (2.0 made packets ids into the
 *   `Packets` store, where 1.0 passed objects);
 * - the fabric lists, in {@link IMPLEMENTED_CONTRACT_VERSIONS}, one version for every minor it
 *   still implements, so a plugin that pinned a minor (`"~3.0"`) keeps running. 3.0 only added
 *   optional members to 2.0, so every version-2 plugin runs as it is and 2.0.0 stays listed;
 *   3.1 added the host context's `mtuBytes` and `dataHeaderBytes`; 3.2 added `Packets.copy`
 *   and the receiver part's `discard`; 3.3 added the switch part's `sampleQueues` (per egress
 *   queue variables for a runner's series); 3.4 added the switch part factory's
 *   `queueValueLabels` (names of those variables' integer values, for the series' figures);
 *   3.5 added the switch part's `dropAtHead` argument `hasRoom` (room past the crossbar now).
 */
export const CONTRACT_VERSION = "3.5.0";

/** The contract versions this fabric implements, newest first: one per minor. */
export const IMPLEMENTED_CONTRACT_VERSIONS: readonly string[] = Object.freeze([
  CONTRACT_VERSION,
  "3.4.0",
  "3.3.0",
  "3.2.0",
  "3.1.0",
  "3.0.0",
  "2.0.0",
]);

/**
 * The contract versions a plugin (or one of its parts) supports: a semver range (`"^3.0.0"`,
 * `"^3"`, `"~3.0"`, `">=2 <4"`, `"3.x"`, `"2 || 3"`, exactly `"3.0.0"`), or, as version-2
 * plugins wrote it, a major version number N, meaning `^N.0.0`. The network rejects a plugin
 * whose range holds none of {@link IMPLEMENTED_CONTRACT_VERSIONS}.
 */
export type SpecVersionRange = number | string;

/**
 * The contract's major version as a number.
 * @deprecated use {@link CONTRACT_VERSION} (a semver string) and {@link SpecVersionRange}
 */
export const SPEC_VERSION = 3;
/** @deprecated use {@link SpecVersionRange} */
export type SpecVersion = SpecVersionRange;

/**
 * True when `version` (a full `major.minor.patch`) lies in `range`. Throws a TypeError for a
 * malformed range or version.
 */
export function satisfiesSpecVersion(version: string, range: SpecVersionRange): boolean {
  const v = parseFullVersion(version);
  if (v === undefined) {
    throw new TypeError(`"${version}" is not a version (expected major.minor.patch, e.g. 3.0.0)`);
  }
  const parsed = parseRange(range);
  if (typeof parsed === "string") throw new TypeError(`${show(range)}: ${parsed}`);
  return rangeHolds(parsed, v);
}

/**
 * Throws a TypeError naming `what` if none of the versions this fabric implements satisfies
 * the plugin's `specVersion`, or if that is not a version range.
 */
export function assertSpecVersion(
  what: string,
  plugin: { readonly specVersion: SpecVersionRange },
): void {
  const range = plugin.specVersion;
  const parsed = parseRange(range);
  if (typeof parsed === "string") {
    throw new TypeError(
      `${what} has specVersion ${show(range)}, which is not a version range: ${parsed}; ` +
        `state a semver range such as "^${CONTRACT_VERSION}" or a major version number such as ${CONTRACT_VERSION.split(".")[0]}`,
    );
  }
  for (const version of IMPLEMENTED_CONTRACT_VERSIONS) {
    if (rangeHolds(parsed, parseFullVersion(version)!)) return;
  }
  const stated =
    typeof range !== "number"
      ? `"${range}"`
      : `specVersion ${range} (${range === 0 ? "0.x" : `^${range}.0.0`})`;
  const [newest, ...older] = IMPLEMENTED_CONTRACT_VERSIONS;
  const implemented = older.length === 0 ? newest : `${newest} (and ${older.join(", ")})`;
  throw new TypeError(
    `${what} supports @cclab/fabric contract ${stated}; this fabric implements ${implemented}`,
  );
}

// --- the range matcher ----------------------------------------------------------------------
// A small subset of node-semver's grammar, without pre-release tags: comparators
// `^ ~ >= > <= < =` (or none) before a full or partial version (`3`, `3.x`, `3.0`, `3.0.0`,
// `*`); comparators separated by spaces must all hold, alternatives separated by `||` are
// tried in turn. Each comparator becomes at most two primitive bounds, as node-semver's
// desugaring does (`^0.2.3` is `>=0.2.3 <0.3.0`, `<=3.1` is `<3.2.0`, `>3` is `>=4.0.0`).

type Version = readonly [major: number, minor: number, patch: number];

interface Bound {
  readonly op: ">=" | ">" | "<=" | "<" | "=";
  readonly version: Version;
}

/** Alternatives (`||`), each a list of bounds that must all hold (none: any version). */
type Range = readonly (readonly Bound[])[];

/** Nothing is below 0.0.0. */
const NEVER: readonly Bound[] = [{ op: "<", version: [0, 0, 0] }];

const OPERATOR = /^(\^|~|>=|<=|>|<|=)?(.*)$/;
const NUMBER = /^(0|[1-9][0-9]*)$/;
const WILDCARD = /^[xX*]$/;

const EXPECTED =
  "expected an optional operator ^ ~ >= > <= < = then a version such as 3, 3.x, 3.0 or 3.0.0; " +
  'spaces join comparators that must all hold, "||" separates alternatives';

/** The parsed range, or why it is not one. */
function parseRange(range: unknown): Range | string {
  if (typeof range === "number") {
    if (!Number.isSafeInteger(range) || range < 0) {
      return `${range} is not a major version (a whole number, 0 or more)`;
    }
    return [desugar("^", [range])];
  }
  if (typeof range !== "string") {
    return range === undefined
      ? "it is missing"
      : `a ${typeof range} (expected a string, or a number for a major version)`;
  }
  if (range.trim() === "") return "the range is empty";
  const alternatives: (readonly Bound[])[] = [];
  for (const alternative of range.split("||")) {
    // `>= 2` is `>=2`: an operator binds to the version after it.
    const tokens = alternative
      .trim()
      .replace(/(\^|~|>=|<=|>|<|=)\s+/g, "$1")
      .split(/\s+/)
      .filter((token) => token !== "");
    if (tokens.length === 0) return `an alternative around "||" is empty`;
    const bounds: Bound[] = [];
    for (const token of tokens) {
      const [, operator = "", rest = ""] = OPERATOR.exec(token)!;
      const given = parsePartial(rest);
      if (given === undefined) return `cannot read "${token}" (${EXPECTED})`;
      bounds.push(...desugar(operator, given));
    }
    alternatives.push(bounds);
  }
  return alternatives;
}

/** The given components of a partial version (`3.x` gives `[3]`, `*` none), or undefined. */
function parsePartial(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length > 3) return undefined;
  const given: number[] = [];
  let wildcard = false;
  for (const part of parts) {
    if (WILDCARD.test(part)) {
      wildcard = true;
      continue;
    }
    // A number after a wildcard (`3.x.1`) means nothing.
    if (wildcard || !NUMBER.test(part)) return undefined;
    const n = Number(part);
    if (!Number.isSafeInteger(n)) return undefined;
    given.push(n);
  }
  return given;
}

function parseFullVersion(text: string): Version | undefined {
  const given = parsePartial(text);
  return given?.length === 3 ? [given[0]!, given[1]!, given[2]!] : undefined;
}

/** One comparator as primitive bounds. */
function desugar(operator: string, given: readonly number[]): readonly Bound[] {
  const n = given.length;
  const [major = 0, minor = 0, patch = 0] = given;
  const low: Version = [major, minor, patch];
  // The first version above every one the partial names (`3` → 4.0.0, `3.1` → 3.2.0).
  const next: Version = n === 1 ? [major + 1, 0, 0] : [major, minor + 1, 0];
  switch (operator) {
    case "":
    case "=":
      if (n === 0) return [];
      return n === 3 ? [{ op: "=", version: low }] : [ge(low), lt(next)];
    case "^": {
      if (n === 0) return [];
      // The leftmost non-zero component given is the one that may not change.
      const upper: Version =
        major > 0 || n === 1
          ? [major + 1, 0, 0]
          : minor > 0 || n === 2
            ? [0, minor + 1, 0]
            : [0, 0, patch + 1];
      return [ge(low), lt(upper)];
    }
    case "~":
      if (n === 0) return [];
      return [ge(low), lt(n === 1 ? [major + 1, 0, 0] : [major, minor + 1, 0])];
    case ">":
      if (n === 0) return NEVER;
      return n === 3 ? [{ op: ">", version: low }] : [ge(next)];
    case ">=":
      return n === 0 ? [] : [ge(low)];
    case "<":
      return n === 0 ? NEVER : [lt(low)];
    default: // "<="
      if (n === 0) return [];
      return n === 3 ? [{ op: "<=", version: low }] : [lt(next)];
  }
}

const ge = (version: Version): Bound => ({ op: ">=", version });
const lt = (version: Version): Bound => ({ op: "<", version });

function rangeHolds(range: Range, v: Version): boolean {
  return range.some((bounds) => bounds.every((bound) => boundHolds(bound, v)));
}

function boundHolds({ op, version }: Bound, v: Version): boolean {
  const c = compare(v, version);
  switch (op) {
    case ">=":
      return c >= 0;
    case ">":
      return c > 0;
    case "<=":
      return c <= 0;
    case "<":
      return c < 0;
    default:
      return c === 0;
  }
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

function show(range: unknown): string {
  return typeof range === "string" ? `"${range}"` : String(range);
}
