import { z } from "zod";

/** One parameter as `cclab list` and the READMEs show it. */
export interface ParamDoc {
  /** Path below the schema: `pfc.xoffBytes` inside an object, `flows[].src` in a list's items. */
  readonly name: string;
  /** `number`, `"a" | "b"`, `number[]`, `{…}` (its keys are the rows below it), `{…}[]`, … */
  readonly type: string;
  /** Required in its object (a nested key: whenever that object is given). */
  readonly required: boolean;
  /** The default as JSON, or undefined when there is none. */
  readonly default: string | undefined;
  /** Meaning and unit (the unit is also in the name: `rateGbps`, `latencyNs`). */
  readonly description: string;
  /**
   * For a key whose default a preset decides (a transform fills it in, so the JSON Schema has
   * none): the preset key and the key's value, as JSON, under each of its choices.
   */
  readonly presets?: { readonly key: string; readonly values: Readonly<Record<string, string>> };
}

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  /** A tuple's members, in order (JSON Schema 2020-12). */
  prefixItems?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  default?: unknown;
  description?: string;
}

type Row = { -readonly [K in keyof ParamDoc]: ParamDoc[K] };

function typeOf(s: JsonSchema): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum !== undefined) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  const union = s.anyOf ?? s.oneOf;
  if (union !== undefined) return [...new Set(union.map(typeOf))].join(" | ");
  if (s.type === "array" && s.prefixItems !== undefined) {
    return `[${s.prefixItems.map(typeOf).join(", ")}]`;
  }
  if (s.type === "array") {
    const item = s.items === undefined ? "any" : typeOf(s.items);
    return item.includes(" | ") ? `(${item})[]` : `${item}[]`;
  }
  if (Array.isArray(s.type)) return s.type.join(" | ");
  // An object's keys are rows of their own; a record (any keys) says what its values are.
  if (s.properties !== undefined && Object.keys(s.properties).length > 0) return "{…}";
  if (s.type === "object" || s.additionalProperties !== undefined) {
    const values = s.additionalProperties;
    return `{ [key]: ${typeof values === "object" && Object.keys(values).length > 0 ? typeOf(values) : "any"} }`;
  }
  return s.type ?? "any";
}

function describeOf(s: JsonSchema): string {
  const union = s.anyOf ?? s.oneOf;
  return (
    s.description ??
    union?.find((a) => a.description !== undefined)?.description ??
    s.items?.description ??
    ""
  );
}

const member = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;

/** A key every object member of a union fixes to a constant (zod's discriminated unions). */
function discriminator(union: readonly JsonSchema[]): string | undefined {
  const objects = union.filter((m) => m.properties !== undefined);
  if (objects.length < 2 || objects.length !== union.length) return undefined;
  return Object.keys(objects[0]!.properties!).find((k) =>
    objects.every((m) => m.properties?.[k]?.const !== undefined),
  );
}

/**
 * Rows for the keys of object schema `s`, then (recursively) for the keys inside them.
 * `fallback` is the default of the enclosing object, which gives its keys theirs (`buffer`
 * defaults to `{ model: "partitioned" }`); `when` names the union variant the keys belong to.
 */
function keyRows(s: JsonSchema, prefix: string, fallback: unknown, when: string, out: Row[]) {
  const required = new Set(s.required ?? []);
  for (const [key, p] of Object.entries(s.properties ?? {})) {
    const value = p.default !== undefined ? p.default : member(fallback, key);
    const name = `${prefix}${key}`;
    out.push({
      name,
      type: typeOf(p),
      required: required.has(key) && value === undefined,
      default: value === undefined ? undefined : JSON.stringify(value),
      description: `${when}${describeOf(p)}`,
    });
    inner(p, name, value, when, out);
  }
}

/** Rows for what is inside the value at `name`: an object's keys, a list's items, variants. */
function inner(p: JsonSchema, name: string, value: unknown, when: string, out: Row[]) {
  if (p.properties !== undefined) return keyRows(p, `${name}.`, value, when, out);
  if (p.items !== undefined) return inner(p.items, `${name}[]`, undefined, when, out);
  const union = p.anyOf ?? p.oneOf;
  if (union === undefined) return;
  const tag = discriminator(union);
  if (tag === undefined) {
    for (const m of union) inner(m, name, undefined, when, out);
    return;
  }
  // One row for the tag listing each variant's meaning, then each variant's own keys.
  const chosen = member(value, tag);
  out.push({
    name: `${name}.${tag}`,
    type: union.map((m) => JSON.stringify(m.properties![tag]!.const)).join(" | "),
    required: chosen === undefined,
    default: chosen === undefined ? undefined : JSON.stringify(chosen),
    description: `${when}${union
      .map((m) => `${m.properties![tag]!.const}: ${describeOf(m) || "(no other keys)"}`)
      .join("; ")}`,
  });
  for (const m of union) {
    const c = m.properties![tag]!.const;
    const { [tag]: _, ...rest } = m.properties!;
    const variant = { ...m, properties: rest };
    keyRows(variant, `${name}.`, chosen === c ? value : undefined, `${when}(${tag} "${c}") `, out);
  }
}

// The parsed value of `input`, or undefined when it does not parse (required keys, async).
function parsed(schema: z.ZodType, input: unknown): unknown {
  try {
    const result = schema.safeParse(input);
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

const at = (value: unknown, name: string): unknown =>
  name.includes("[]") ? undefined : name.split(".").reduce(member, value);

/**
 * Defaults a transform fills in (a CC plugin's preset values: `markingRate` comes from the
 * chosen preset) are not in the JSON Schema, which describes the input; they are read from
 * what the schema makes of `{}` instead, and of `{ preset: choice }` for each choice of an
 * enum key that changes them.
 */
function resolvedDefaults(schema: z.ZodType, json: JsonSchema, rows: Row[]): void {
  const empty = parsed(schema, {});
  const open = rows.filter((r) => !r.required && r.default === undefined);
  const filled = open.filter((r) => at(empty, r.name) !== undefined);
  for (const r of filled) r.default = JSON.stringify(at(empty, r.name));
  for (const [key, p] of Object.entries(json.properties ?? {})) {
    const choices = (p.enum ?? []).filter((c): c is string => typeof c === "string");
    const outputs = choices.map((c) => parsed(schema, { [key]: c }));
    const values = filled.map((r) =>
      Object.fromEntries(choices.map((c, i) => [c, JSON.stringify(at(outputs[i], r.name)) ?? "-"])),
    );
    const selects = values.some((v) => new Set(Object.values(v)).size > 1);
    if (!selects) continue;
    // A key every preset leaves null (unset) is not one of the presets' values.
    for (const [i, r] of filled.entries()) {
      if (Object.values(values[i]!).some((v) => v !== "null")) {
        r.presets = { key, values: values[i]! };
      }
    }
    return;
  }
}

/**
 * The parameters of an object schema, from its JSON Schema (input side: defaults optional),
 * with nested objects, list items and union variants as rows of their own.
 */
export function paramDocs(schema: z.ZodType): ParamDoc[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const rows: Row[] = [];
  keyRows(json, "", undefined, "", rows);
  resolvedDefaults(schema, json, rows);
  // A key two variants share (the `plugin` of both forms of cc.switch) is listed once.
  const seen = new Set<string>();
  return rows.filter((r) => {
    const id = JSON.stringify(r);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
