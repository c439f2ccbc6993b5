import { pathToFileURL } from "node:url";
import { dcqcnPlugin } from "@cclab/cc-dcqcn";
import { e2cmPlugin } from "@cclab/cc-e2cm";
import { ecoccPlugin } from "@cclab/cc-ecocc";
import { fimdPlugin } from "@cclab/cc-fimd";
import { infinibandPlugin } from "@cclab/cc-infiniband";
import { srpPlugin } from "@cclab/cc-srp";
import { tcdPlugin } from "@cclab/cc-tcd";
import { assertSpecVersion, type CcPlugin, isCcPlugin, isZodSchema } from "@cclab/fabric";
import type { z } from "zod";
import { type PluginSpecifierOptions, resolvePluginSpecifier } from "./plugin-specifier.js";

/**
 * A congestion-control plugin as a scenario names it (defined by the contract,
 * @cclab/fabric, so a `cc-*` package needs nothing from sim; re-exported here for the code
 * that imported it from sim).
 */
export type { CcPlugin };

/** The project's own plugins are built in; others come from a scenario's `plugins`. */
const BUILT_IN: readonly CcPlugin[] = [
  infinibandPlugin,
  dcqcnPlugin,
  srpPlugin,
  tcdPlugin,
  ecoccPlugin,
  e2cmPlugin,
  fimdPlugin,
];

const registry = new Map<string, CcPlugin>(BUILT_IN.map((plugin) => [plugin.name, plugin]));

/**
 * Makes a plugin available to scenarios by its name. Registering a name twice, something that
 * is not a plugin, or a plugin whose `specVersion` this fabric does not implement is an error.
 */
export function registerCcPlugin<S extends z.ZodType>(plugin: CcPlugin<S>): void {
  if (!isCcPlugin(plugin)) {
    throw new TypeError(
      `${showName(plugin)} is not a CC plugin (expected name, description, params: a zod 4 schema, and create)`,
    );
  }
  if (plugin.specVersion !== undefined) {
    assertSpecVersion(`CC plugin "${plugin.name}"`, { specVersion: plugin.specVersion });
  }
  if (registry.has(plugin.name)) {
    throw new TypeError(`a CC plugin named "${plugin.name}" is already registered`);
  }
  registry.set(plugin.name, plugin as unknown as CcPlugin);
}

/** The registered plugins, by name. */
export function ccPlugins(): ReadonlyMap<string, CcPlugin> {
  return registry;
}

/**
 * Imports the modules a scenario lists under `plugins` and registers every `CcPlugin` they
 * export as `ccPlugins` (an array) or as the default export. Importing a module runs its code:
 * only npm package names and file paths are imported, resolved from `options.baseDir` (the
 * scenario's folder; default the working directory), and any other entry (a `data:` or
 * `http:` URL, ...) is an issue before anything is imported (see `plugin-specifier.ts`).
 * Returns issues for modules that are refused, cannot be loaded or export nothing usable, and
 * for each exported plugin that cannot be used (its `params` not a zod schema, a
 * `specVersion` range this build's contract does not satisfy, ...).
 */
export async function loadPluginModules(
  specifiers: readonly string[],
  options: Partial<PluginSpecifierOptions> = {},
): Promise<{ path: string; message: string }[]> {
  const issues: { path: string; message: string }[] = [];
  const where: PluginSpecifierOptions = {
    ...options,
    baseDir: options.baseDir ?? process.cwd(),
  };
  // Every entry is checked before the first import; a refused one is never imported.
  const resolved = specifiers.map((specifier) => resolvePluginSpecifier(specifier, where));
  for (const [i, specifier] of specifiers.entries()) {
    const path = `plugins[${i}]`;
    const { file, refused } = resolved[i]!;
    if (file === undefined) {
      issues.push({ path, message: refused });
      continue;
    }
    let mod: { default?: unknown; ccPlugins?: unknown };
    try {
      mod = (await import(pathToFileURL(file).href)) as typeof mod;
    } catch (error) {
      issues.push({
        path,
        message: `cannot import "${specifier}": ${(error as Error).message.split("\n")[0]}`,
      });
      continue;
    }
    const exported: unknown[] = Array.isArray(mod.ccPlugins) ? mod.ccPlugins : [mod.default];
    let pluginLike = 0;
    for (const value of exported) {
      if (!isPluginLike(value)) continue;
      pluginLike++;
      const problem = pluginProblem(value);
      if (problem !== undefined) {
        issues.push({ path, message: `"${specifier}" exports "${value.name}"${problem}` });
      } else if (registry.get(value.name) !== value) {
        registerCcPlugin(value as CcPlugin);
      }
    }
    if (pluginLike === 0) {
      issues.push({
        path,
        message: `"${specifier}" exports no CC plugin (expected \`export const ccPlugins = [...]\` or a default export with name, params and create)`,
      });
    }
  }
  return issues;
}

/** What a module meant as a plugin: an object with a name and `create` or `params`. */
function isPluginLike(value: unknown): value is { readonly name: string } {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.name === "string" && ("create" in v || "params" in v);
}

/** Why a plugin-like export cannot be registered (after its name), or undefined. */
function pluginProblem(value: { readonly name: string }): string | undefined {
  const v = value as Partial<Record<keyof CcPlugin, unknown>>;
  if (!isZodSchema(v.params)) return " whose params is not a zod schema (zod 4 object expected)";
  if (typeof v.create !== "function") return " without a create function";
  if (typeof v.description !== "string") return " without a description (a string)";
  if (v.specVersion !== undefined) {
    try {
      assertSpecVersion(": the plugin", { specVersion: v.specVersion as number | string });
    } catch (error) {
      return (error as Error).message;
    }
  }
  return isCcPlugin(value) ? undefined : " which is not a CC plugin";
}

function showName(value: unknown): string {
  const name = (value as { name?: unknown } | null | undefined)?.name;
  return typeof name === "string" ? `"${name}"` : String(value);
}
