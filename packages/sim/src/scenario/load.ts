import { readFileSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";
import { parseDocument, parse as parseYaml } from "yaml";
import { ScenarioError } from "./issues.js";

/**
 * Parses a scenario file's text: JSON for `.json`, YAML otherwise (YAML is a superset of
 * JSON). Syntax errors become a {@link ScenarioError} with the line and column.
 */
export function parseScenarioText(text: string, fileName = "scenario.yaml"): unknown {
  if (extname(fileName).toLowerCase() === ".json") {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ScenarioError([
        { path: "", message: `${fileName} is not valid JSON: ${(error as Error).message}` },
      ]);
    }
  }
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ScenarioError(
      doc.errors.map((e) => ({
        path: "",
        message: `${fileName}: ${e.message.split("\n")[0]}`,
      })),
    );
  }
  return doc.toJS();
}

/** `path=value` assignments (`--set`): the path is dotted with `[i]` or `.i` for list items. */
export function applyOverrides(document: unknown, assignments: readonly string[]): unknown {
  const root = structuredClone(document ?? {}) as Record<string, unknown>;
  const issues: { path: string; message: string }[] = [];
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
    // The value is read as YAML, so numbers, booleans, null and [lists] keep their types.
    let value: unknown;
    try {
      value = parseYaml(assignment.slice(eq + 1));
    } catch (error) {
      issues.push({ path, message: `--set value is not valid YAML: ${(error as Error).message}` });
      continue;
    }
    let at: Record<string, unknown> = root;
    for (let i = 0; i < keys.length - 1; i++) {
      const key = keys[i]!;
      const next = at[key];
      if (typeof next !== "object" || next === null) {
        at[key] = /^\d+$/.test(keys[i + 1]!) ? [] : {};
      }
      at = at[key] as Record<string, unknown>;
    }
    at[keys[keys.length - 1]!] = value;
  }
  if (issues.length > 0) throw new ScenarioError(issues);
  return root;
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
