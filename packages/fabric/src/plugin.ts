import type { z } from "zod";
import type { CcScheme } from "./cc.js";
import type { SpecVersionRange } from "./version.js";

/**
 * A congestion-control plugin as a scenario names it: a `cc-*` package exports one (or
 * several) of these. `create` turns validated parameters into the scheme's parts
 * ({@link CcScheme}); the scenario chooses which hosts run its sender and receiver parts and
 * whether the switches run its switch part. Part of the contract, so a scheme package needs
 * only `@cclab/fabric` (and zod, a peer dependency) to declare one.
 */
export interface CcPlugin<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  /** Parameters with units in their keys, defaults and descriptions (shown by `cclab list`). */
  readonly params: S;
  /**
   * The contract versions the plugin as a whole supports (see {@link SpecVersionRange}),
   * checked when the plugin is loaded, before any scenario uses it. The scheme and each part
   * still state their own `specVersion`, which the network checks when it is built.
   */
  readonly specVersion?: SpecVersionRange;
  create(params: z.output<S>): CcScheme;
}

/**
 * True for a zod 4 schema (a `safeParse` method and the `_zod` internals every zod 4 schema
 * carries), from whichever copy of zod made it. A zod 3 schema or a plain object of fields
 * is not one.
 */
export function isZodSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { safeParse?: unknown }).safeParse === "function" &&
    "_zod" in value &&
    typeof (value as { _zod?: unknown })._zod === "object"
  );
}

/**
 * True for a {@link CcPlugin}: a name, a description, `params` a zod schema, a `create`
 * function and, if given, a `specVersion` that is a string or a number. Whether the fabric
 * implements that version is `assertSpecVersion`'s question.
 */
export function isCcPlugin(value: unknown): value is CcPlugin {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<Record<keyof CcPlugin, unknown>>;
  return (
    typeof v.name === "string" &&
    typeof v.description === "string" &&
    typeof v.create === "function" &&
    isZodSchema(v.params) &&
    (v.specVersion === undefined ||
      typeof v.specVersion === "string" ||
      typeof v.specVersion === "number")
  );
}
