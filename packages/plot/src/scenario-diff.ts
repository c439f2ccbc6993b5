/**
 * Where runs' scenarios differ in more than what a comparison is usually about: the fields of
 * their `scenario.resolved.json` that are not equal in every run, leaving out the name, the
 * description and the CC assignment (what one compares) and the metrics (what was recorded).
 * A comparison of runs that differ in duration, warm-up, traffic or topology compares more
 * than their CC, and the reader must be told which fields.
 */
export interface ScenarioDifference {
  /** A dotted path into the resolved scenario, e.g. `run.durationUs`, `traffic[0].loadFraction`. */
  readonly path: string;
  /** The value in each run, as JSON (`(none)` where a run has no such field). */
  readonly values: readonly string[];
}

const IGNORED = new Set(["name", "description", "cc", "plugins", "metrics"]);

/** The differing fields of `scenarios` (one resolved scenario per run), in path order. */
export function scenarioDifferences(scenarios: readonly unknown[]): ScenarioDifference[] {
  const flat = scenarios.map((s) => flatten(s));
  const paths = [...new Set(flat.flatMap((f) => [...f.keys()]))].sort();
  const out: ScenarioDifference[] = [];
  for (const path of paths) {
    if (IGNORED.has(path.split(/[.[]/)[0]!)) continue;
    const values = flat.map((f) => f.get(path) ?? "(none)");
    if (values.some((v) => v !== values[0])) out.push({ path, values });
  }
  return out;
}

// Leaf values by path: objects by key, arrays by index, leaves as JSON.
function flatten(value: unknown, path = "", out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) {
    if (value.length === 0) out.set(path, "[]");
    for (const [i, v] of value.entries()) flatten(v, `${path}[${i}]`, out);
  } else if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) out.set(path, "{}");
    for (const [k, v] of entries) flatten(v, path === "" ? k : `${path}.${k}`, out);
  } else {
    out.set(path, JSON.stringify(value));
  }
  return out;
}
