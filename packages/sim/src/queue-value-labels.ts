import { queueValueLabelErrors, type SwitchPartFactory } from "@cclab/fabric";

/**
 * Names of the values of the `cc-queues` series' variables as `run.json` holds them
 * (`queueSeries.valueLabels`): per variable, names by value, the values as JSON object keys
 * (`{ state: { "0": "NC: non-congestion", … } }`).
 */
export type QueueValueLabelsJson = Readonly<Record<string, Readonly<Record<string, string>>>>;

/**
 * The value names the switch parts declare (contract 3.4's `queueValueLabels`), combined in
 * the order the parts run on a switch (`cc`'s, then each of `switchCc`'s). The series has one
 * `variable` column for every part, so one variable gets one set of names: the first part that
 * names a variable gives all its names, and a later part's names for it are left out, without
 * a warning (two parts that report a variable of the same name already share its rows).
 * Throws a TypeError with one `cc: ` line per malformed declaration (a plugin written in
 * JavaScript has no type check), naming the part and the field.
 */
export function combineQueueValueLabels(
  factories: readonly SwitchPartFactory[],
): QueueValueLabelsJson {
  // A map, not an object: a variable may be named anything, `__proto__` included.
  const combined = new Map<string, Readonly<Record<string, string>>>();
  const problems: string[] = [];
  for (const factory of factories) {
    const labels: unknown = factory.queueValueLabels;
    if (labels === undefined) continue;
    const errors = queueValueLabelErrors(labels);
    if (errors.length > 0) {
      problems.push(...errors.map((e) => `cc: switch part "${factory.name}": ${e}`));
      continue;
    }
    for (const [variable, names] of Object.entries(factory.queueValueLabels!)) {
      if (combined.has(variable)) continue;
      // A copy: later changes to the part's own object do not reach the results.
      combined.set(variable, Object.fromEntries(Object.entries(names)));
    }
  }
  if (problems.length > 0) throw new TypeError(problems.join("\n"));
  return Object.fromEntries(combined);
}
