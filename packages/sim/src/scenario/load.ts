import { readFileSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";
import { parseDocument, parse as parseYaml } from "yaml";
import { ScenarioError, type ScenarioIssue } from "./issues.js";
import { documentIssues, forbiddenKeyMessage, MAX_DEPTH, MAX_YAML_ALIASES } from "./limits.js";

/**
 * Parses a scenario file's text: JSON for `.json`, YAML otherwise (YAML is a superset of
 * JSON). Syntax errors become a {@link ScenarioError} with the line and column, and so do the
 * input limits (packages/sim/README.md, "Input limits"): more than {@link MAX_YAML_ALIASES}
 * YAML aliases, nesting deeper than {@link MAX_DEPTH}, and the keys `__proto__`,
 * `constructor` and `prototype` anywhere.
 */
export function parseScenarioText(text: string, fileName = "scenario.yaml"): unknown {
  let value: unknown;
  if (extname(fileName).toLowerCase() === ".json") {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ScenarioError([
        { path: "", message: `${fileName} is not valid JSON: ${(error as Error).message}` },
      ]);
    }
  } else {
    value = parseYamlText(text, fileName);
  }
  const issues = documentIssues(value);
  if (issues.length > 0) throw new ScenarioError(issues);
  return value;
}

function parseYamlText(text: string, fileName: string): unknown {
  try {
    const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
    if (doc.errors.length > 0) {
      throw new ScenarioError(
        doc.errors.map((e) => ({
          path: "",
          message: stackOverflow(e.message)
            ? `${fileName} ${TOO_DEEP}`
            : `${fileName}: ${e.message.split("\n")[0]}`,
        })),
      );
    }
    return doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    if (error instanceof ScenarioError) throw error;
    throw new ScenarioError([{ path: "", message: `${fileName} ${yamlFailure(error)}` }]);
  }
}

const TOO_DEEP = `is nested too deeply (at most ${MAX_DEPTH} levels)`;

// The yaml parser reports its own stack overflow (thousands of nested [ or {) as a syntax error.
const stackOverflow = (message: string) => /maximum call stack/i.test(message);

/** What went wrong reading YAML (a syntax error, an alias bomb, nesting the parser cannot take). */
function yamlFailure(error: unknown): string {
  if (error instanceof ReferenceError && /alias/i.test(error.message)) {
    return `has too many YAML alias references (at most ${MAX_YAML_ALIASES} resolved per document)`;
  }
  if (error instanceof RangeError || stackOverflow(String((error as Error)?.message))) {
    return TOO_DEEP;
  }
  return `is not valid YAML: ${String((error as Error)?.message ?? error).split("\n")[0]}`;
}

/**
 * `path=value` assignments (`--set`): the path is dotted with `[i]` or `.i` for list items.
 * A list index goes up to the list's length (the length appends); the keys `__proto__`,
 * `constructor` and `prototype` are refused, and the value obeys the limits of a document.
 */
export function applyOverrides(document: unknown, assignments: readonly string[]): unknown {
  const before = documentIssues(document ?? {});
  if (before.length > 0) throw new ScenarioError(before);
  const root = structuredClone(document ?? {}) as Record<string, unknown>;
  const issues: ScenarioIssue[] = [];
  for (const assignment of assignments) {
    const eq = assignment.indexOf("=");
    if (eq <= 0) {
      issues.push({ path: "", message: `--set "${assignment}" must be path=value` });
      continue;
    }
    const path = assignment.slice(0, eq).trim();
    const keys = path
      .replace(/\[(\d+)\]/g, ".$1")
      .split(".")
      .filter((k) => k !== "");
    if (keys.length === 0) {
      issues.push({ path: "", message: `--set "${assignment}" must be path=value` });
      continue;
    }
    const refused = keys.map(forbiddenKeyMessage).find((m) => m !== undefined);
    if (refused !== undefined) {
      issues.push({ path, message: `--set ${refused}` });
      continue;
    }
    // The value is read as YAML, so numbers, booleans, null and [lists] keep their types.
    let value: unknown;
    try {
      value = parseYaml(assignment.slice(eq + 1), { maxAliasCount: MAX_YAML_ALIASES });
    } catch (error) {
      issues.push({ path, message: `--set value ${yamlFailure(error)}` });
      continue;
    }
    const valueIssues = documentIssues(value, path, keys.length + 1);
    if (valueIssues.length > 0) {
      issues.push(...valueIssues);
      continue;
    }
    const problem = assign(root, keys, value);
    if (problem !== undefined) issues.push({ path, message: `--set ${problem}` });
  }
  if (issues.length > 0) throw new ScenarioError(issues);
  return root;
}

/**
 * Sets `keys` in `root` to `value`, making the missing maps and lists on the way; returns what
 * is wrong instead (an index beyond a list's end: a sparse list of 10^8 holes would hang).
 */
function assign(root: Record<string, unknown>, keys: readonly string[], value: unknown) {
  let at: Record<string, unknown> | unknown[] = root;
  let where = "(scenario)";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (Array.isArray(at)) {
      if (!/^\d+$/.test(key)) return `${where} is a list: give an index [i], not "${key}"`;
      const index = Number(key);
      if (index > at.length) {
        return `index ${key} is beyond the end of ${where} (${at.length} items): use 0..${at.length} (${at.length} appends)`;
      }
    }
    where = Array.isArray(at)
      ? `${where}[${key}]`
      : where === "(scenario)"
        ? key
        : `${where}.${key}`;
    const slot = at as Record<string, unknown>;
    if (i === keys.length - 1) {
      slot[key] = value;
      return undefined;
    }
    const next = Object.hasOwn(slot, key) ? slot[key] : undefined;
    if (typeof next !== "object" || next === null) {
      slot[key] = /^\d+$/.test(keys[i + 1]!) ? [] : {};
    }
    at = slot[key] as Record<string, unknown> | unknown[];
  }
  return undefined;
}

/** A scenario file read from disk, with overrides applied; `baseDir` is its directory. */
export interface LoadedScenarioFile {
  readonly document: unknown;
  readonly baseDir: string;
}

export function readScenarioFile(
  file: string,
  overrides: { readonly seed?: number; readonly set?: readonly string[] } = {},
): LoadedScenarioFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ScenarioError([
      {
        path: "",
        message: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      },
    ]);
  }
  let document = applyOverrides(parseScenarioText(text, file), overrides.set ?? []);
  if (overrides.seed !== undefined) document = { ...(document as object), seed: overrides.seed };
  return { document, baseDir: dirname(resolve(file)) };
}
