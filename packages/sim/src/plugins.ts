import { dcqcnPlugin } from "@cclab/cc-dcqcn";
import { infinibandPlugin } from "@cclab/cc-infiniband";
import type { CcScheme } from "@cclab/fabric";
import type { z } from "zod";

/**
 * A congestion-control plugin as a scenario names it: a `cc-*` package exports one (or
 * several) of these. `create` turns validated parameters into the scheme's parts
 * (@cclab/fabric `CcScheme`); the scenario chooses which hosts run its sender and receiver
 * parts and whether the switches run its switch part.
 */
export interface CcPlugin<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  /** Parameters with units in their keys, defaults and descriptions (shown by `cclab list`). */
  readonly params: S;
  create(params: z.output<S>): CcScheme;
}

/** The project's own plugins are built in; others come from a scenario's `plugins`. */
const BUILT_IN: readonly CcPlugin[] = [
  infinibandPlugin as unknown as CcPlugin,
  dcqcnPlugin as unknown as CcPlugin,
];

const registry = new Map<string, CcPlugin>(BUILT_IN.map((plugin) => [plugin.name, plugin]));

/** Makes a plugin available to scenarios by its name. Registering a name twice is an error. */
export function registerCcPlugin<S extends z.ZodType>(plugin: CcPlugin<S>): void {
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
 * export as `ccPlugins` (an array) or as the default export. Returns issues for modules that
 * cannot be loaded or export nothing usable.
 */
export async function loadPluginModules(
  specifiers: readonly string[],
): Promise<{ path: string; message: string }[]> {
  const issues: { path: string; message: string }[] = [];
  for (const [i, specifier] of specifiers.entries()) {
    let mod: { default?: unknown; ccPlugins?: unknown };
    try {
      mod = (await import(specifier)) as typeof mod;
    } catch (error) {
      issues.push({
        path: `plugins[${i}]`,
        message: `cannot import "${specifier}": ${(error as Error).message.split("\n")[0]}`,
      });
      continue;
    }
    const exported = Array.isArray(mod.ccPlugins) ? mod.ccPlugins : [mod.default];
    const plugins = exported.filter(isPlugin);
    if (plugins.length === 0) {
      issues.push({
        path: `plugins[${i}]`,
        message: `"${specifier}" exports no CC plugin (expected \`export const ccPlugins = [...]\` or a default export with name, params and create)`,
      });
    }
    for (const plugin of plugins)
      if (registry.get(plugin.name) !== plugin) registerCcPlugin(plugin);
  }
  return issues;
}

function isPlugin(value: unknown): value is CcPlugin {
  const v = value as Partial<CcPlugin> | undefined;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.name === "string" &&
    typeof v.create === "function" &&
    typeof v.params === "object"
  );
}
