import { pathToFileURL } from "node:url";
import { dcqcnPlugin } from "@cclab/cc-dcqcn";
import { e2cmPlugin } from "@cclab/cc-e2cm";
import { ecoccPlugin } from "@cclab/cc-ecocc";
import { fimdPlugin } from "@cclab/cc-fimd";
import { infinibandPlugin } from "@cclab/cc-infiniband";
import { srpPlugin } from "@cclab/cc-srp";
import { tcdPlugin } from "@cclab/cc-tcd";
import {
  assertSpecVersion,
  type CcPlugin,
  type CcScheme,
  isCcPlugin,
  isZodSchema,
} from "@cclab/fabric";
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

/** Where each plugin that is not built in came from: the `plugins` entry that loaded it. */
const origins = new Map<CcPlugin, string>();

/**
 * Where a registered plugin came from, for messages: `built in`, `from "./my-cc.js"` (the
 * `plugins` entry that loaded it) or `registered in code` (`registerCcPlugin`).
 */
export function ccPluginOrigin(plugin: CcPlugin): string {
  if (BUILT_IN.includes(plugin)) return "built in";
  const specifier = origins.get(plugin);
  return specifier === undefined ? "registered in code" : `from ${JSON.stringify(specifier)}`;
}

/**
 * Makes a plugin available to scenarios by its name. Registering a name twice, something that
 * is not a plugin (its `params` not a zod schema, no `create`, no description), or a plugin
 * whose `specVersion` this fabric does not implement is a TypeError naming the plugin and the
 * problem.
 */
export function registerCcPlugin<S extends z.ZodType>(plugin: CcPlugin<S>): void {
  if (!isPluginLike(plugin)) {
    throw new TypeError(
      `${showName(plugin)} is not a CC plugin (expected name, description, params: a zod 4 schema, and create)`,
    );
  }
  const problem = pluginProblem(plugin);
  if (problem !== undefined) {
    throw new TypeError(`cannot register CC plugin "${plugin.name}"${problem}`);
  }
  const registered = registry.get(plugin.name);
  if (registered !== undefined) {
    throw new TypeError(
      `a CC plugin named "${plugin.name}" is already registered (${ccPluginOrigin(registered)}); give this one another name`,
    );
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
  return (await importPluginModules(specifiers, options)).issues;
}

/**
 * {@link loadPluginModules}, also returning the plugins the modules export that can be used
 * (registered now, or already by an earlier load of the same module), in their order: what
 * `cclab list --plugin` lists.
 */
export async function importPluginModules(
  specifiers: readonly string[],
  options: Partial<PluginSpecifierOptions> = {},
): Promise<{ issues: { path: string; message: string }[]; plugins: CcPlugin[] }> {
  const issues: { path: string; message: string }[] = [];
  const plugins: CcPlugin[] = [];
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
      const registered = registry.get(value.name);
      if (problem !== undefined) {
        issues.push({ path, message: `"${specifier}" exports "${value.name}"${problem}` });
      } else if (registered !== undefined && registered !== value) {
        // Another plugin has the name (a built-in one, or one of another module).
        issues.push({
          path,
          message: `"${specifier}" exports "${value.name}", but a CC plugin of that name is already registered (${ccPluginOrigin(registered)}); give it another name`,
        });
      } else {
        if (registered === undefined) {
          registerCcPlugin(value as CcPlugin);
          origins.set(value as CcPlugin, specifier);
        }
        plugins.push(value as CcPlugin);
      }
    }
    if (pluginLike === 0) {
      issues.push({
        path,
        message: `"${specifier}" exports no CC plugin (expected \`export const ccPlugins = [...]\` or a default export with name, params and create)`,
      });
    }
  }
  return { issues, plugins };
}

/**
 * Why the scheme `plugin.create(params)` makes cannot run on this fabric, or undefined: the
 * contract version that the scheme, or a part the assignment runs (a switch assignment its
 * switch and queueing parts, a host group its sender and receiver parts), states and the
 * fabric does not implement. Checked while the scenario is validated, so the problem is
 * reported at the assignment that names the plugin instead of wherever building the network
 * would fail. A `create` that throws is left to the network's build, which reports it as
 * before.
 */
export function ccSchemeProblem(
  plugin: CcPlugin,
  params: unknown,
  side: "switch" | "hosts",
): string | undefined {
  let scheme: CcScheme;
  try {
    scheme = plugin.create(params);
  } catch {
    return undefined;
  }
  const parts =
    side === "switch"
      ? ([
          ["switch", scheme.switchPart],
          ["queueing", scheme.queueingPart],
        ] as const)
      : ([
          ["sender", scheme.senderPart],
          ["receiver", scheme.receiverPart],
        ] as const);
  try {
    assertSpecVersion(`its scheme "${scheme.name}"`, scheme);
    for (const [kind, part] of parts) {
      if (part !== undefined) assertSpecVersion(`its ${kind} part "${part.name}"`, part);
    }
  } catch (error) {
    return `CC plugin "${plugin.name}" (${ccPluginOrigin(plugin)}): ${(error as Error).message}`;
  }
  return undefined;
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
