/** One problem with a scenario: where it is (a dotted path, `traffic[1].loadFraction`) and what is wrong. */
export interface ScenarioIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * A scenario that cannot run, with every problem found (not only the first). The CLI prints
 * `issues` one per line and exits 2; it never shows a stack trace for this error.
 */
export class ScenarioError extends Error {
  constructor(readonly issues: readonly ScenarioIssue[]) {
    super(formatIssues(issues));
    this.name = "ScenarioError";
  }
}

/** At most this many issues are shown (a list of a million bad items is counted, not printed). */
const MAX_SHOWN = 200;

/** `path: message` lines; the scenario root is shown as `(scenario)`. Flat, no recursion. */
export function formatIssues(issues: readonly ScenarioIssue[]): string {
  const lines = issues
    .slice(0, MAX_SHOWN)
    .map((i) => `${i.path === "" ? "(scenario)" : i.path}: ${i.message}`);
  if (issues.length > MAX_SHOWN) lines.push(`… and ${issues.length - MAX_SHOWN} more problems`);
  return lines.join("\n");
}

/** `a.b[2].c` from zod-style path segments. */
export function joinPath(segments: readonly PropertyKey[]): string {
  let out = "";
  for (const s of segments) {
    if (typeof s === "number") out += `[${s}]`;
    else out += out === "" ? String(s) : `.${String(s)}`;
  }
  return out;
}
