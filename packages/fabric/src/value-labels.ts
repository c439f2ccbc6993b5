/**
 * Names of the values of a switch part's per-queue variables (contract 3.4,
 * `SwitchPartFactory.queueValueLabels`): what turns TCD's `state` 0–3 into NC, CHECK, U and C
 * on a figure's axis.
 */

/** Names of a variable's integer values, by value (`{ 0: "NC: non-congestion", … }`). */
export type ValueLabels = Readonly<Record<number, string>>;

/** Per variable a switch part reports through `sampleQueues`, the names of its values. */
export type QueueValueLabels = Readonly<Record<string, ValueLabels>>;

const INTEGER = /^-?(0|[1-9][0-9]*)$/;

/**
 * What is wrong with a `queueValueLabels` declaration, one message per problem, each starting
 * with the field's path (`queueValueLabels.state.1.5: …`); empty when it is well formed. The
 * types say it already, but plugins loaded from JavaScript files get no type check: a runner
 * calls this before it writes the names anywhere. Values are safe integers (the variables a
 * state machine reports: a name at 1.5 would label no state), names non-empty strings.
 */
export function queueValueLabelErrors(labels: unknown): string[] {
  const at = "queueValueLabels";
  if (!isRecord(labels)) {
    return [`${at}: ${shown(labels)} (expected { variable: { value: name } })`];
  }
  const problems: string[] = [];
  for (const [variable, names] of Object.entries(labels)) {
    if (!isRecord(names)) {
      problems.push(`${at}.${variable}: ${shown(names)} (expected { value: name })`);
      continue;
    }
    for (const [value, name] of Object.entries(names)) {
      if (!INTEGER.test(value) || !Number.isSafeInteger(Number(value))) {
        problems.push(`${at}.${variable}: "${value}" is not an integer value`);
      } else if (typeof name !== "string" || name.trim() === "") {
        problems.push(`${at}.${variable}.${value}: ${shown(name)} (expected a non-empty name)`);
      }
    }
  }
  return problems;
}

function isRecord(x: unknown): x is Readonly<Record<string, unknown>> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function shown(x: unknown): string {
  if (typeof x === "string") return `"${x}"`;
  if (Array.isArray(x)) return "an array";
  if (typeof x === "object" && x !== null) return "an object";
  return typeof x === "function" ? "a function" : String(x);
}
