import type { ScenarioIssue } from "./issues.js";

/**
 * Limits on what a scenario (or sweep) document may be, so bad input is an input error and
 * never a crash, a hang or a polluted `Object.prototype` (packages/sim/README.md, "Input limits").
 */

/** Lists and maps nest at most this deep (the root counts as 1); checked without recursion. */
export const MAX_DEPTH = 64;
/** A YAML document may resolve at most this many aliases (`*name`): no alias bombs. */
export const MAX_YAML_ALIASES = 100;
/** Keys refused anywhere in a document and in `--set` paths: they reach `Object.prototype`. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  "__proto__",
  "constructor",
  "prototype",
]);
/** A run has at most this many time-series bins over `run.durationUs` (durationUs / binUs). */
export const MAX_BINS = 1_000_000;
/** The narrowest bin, in µs (1 ns): without a duration (untilComplete) bins grow with the run. */
export const MIN_BIN_US = 0.001;
/** At most this many issues of the limits are listed (the rest are counted). */
const MAX_LIMIT_ISSUES = 20;

const forbidden = (key: string) =>
  `key "${key}" is not allowed (${[...FORBIDDEN_KEYS].join(", ")} are refused anywhere)`;

/** The message for a `--set` (or sweep) path segment that is refused, if it is. */
export function forbiddenKeyMessage(key: string): string | undefined {
  return FORBIDDEN_KEYS.has(key) ? forbidden(key) : undefined;
}

/**
 * Nesting deeper than {@link MAX_DEPTH} and forbidden keys anywhere in `value`, walked with an
 * explicit stack (a 5,000-deep document must not overflow the call stack). `depth` is the depth
 * `value` sits at (1 for a document's root); `path` names it.
 */
export function documentIssues(value: unknown, path = "", depth = 1): ScenarioIssue[] {
  const issues: ScenarioIssue[] = [];
  let more = 0;
  const add = (issue: ScenarioIssue) => {
    if (issues.length < MAX_LIMIT_ISSUES) issues.push(issue);
    else more++;
  };
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path, depth }];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (typeof at.value !== "object" || at.value === null) continue;
    if (at.depth > MAX_DEPTH) {
      add({ path: at.path, message: `nested more than ${MAX_DEPTH} levels deep` });
      continue;
    }
    if (Array.isArray(at.value)) {
      for (let i = at.value.length - 1; i >= 0; i--) {
        stack.push({ value: at.value[i], path: `${at.path}[${i}]`, depth: at.depth + 1 });
      }
      continue;
    }
    const keys = Object.keys(at.value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const keyPath = at.path === "" ? key : `${at.path}.${key}`;
      if (FORBIDDEN_KEYS.has(key)) {
        add({ path: keyPath, message: forbidden(key) });
        continue;
      }
      stack.push({
        value: (at.value as Record<string, unknown>)[key],
        path: keyPath,
        depth: at.depth + 1,
      });
    }
  }
  if (more > 0) issues.push({ path, message: `and ${more} more problems of nesting or keys` });
  return issues;
}
