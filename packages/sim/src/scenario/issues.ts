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

/** `path: message` lines; the scenario root is shown as `(scenario)`. */
export function formatIssues(issues: readonly ScenarioIssue[]): string {
  return issues.map((i) => `${i.path === "" ? "(scenario)" : i.path}: ${i.message}`).join("\n");
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
