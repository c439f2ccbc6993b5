import { z } from "zod";

/** One parameter as `cclab list` and the READMEs show it. */
export interface ParamDoc {
  readonly name: string;
  /** `number`, `string`, `boolean`, `"a" | "b"`, `number[]`, `object`, … */
  readonly type: string;
  readonly required: boolean;
  /** The default as JSON, or undefined when there is none. */
  readonly default: string | undefined;
  /** Meaning and unit (the unit is also in the name: `rateGbps`, `latencyNs`). */
  readonly description: string;
}

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  default?: unknown;
  description?: string;
}

function typeOf(s: JsonSchema): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum !== undefined) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  const union = s.anyOf ?? s.oneOf;
  if (union !== undefined) return [...new Set(union.map(typeOf))].join(" | ");
  if (s.type === "array") return `${s.items === undefined ? "unknown" : typeOf(s.items)}[]`;
  if (Array.isArray(s.type)) return s.type.join(" | ");
  return s.type ?? "unknown";
}

/** The parameters of an object schema, from its JSON Schema (input side: defaults optional). */
export function paramDocs(schema: z.ZodType): ParamDoc[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, p]) => {
    const inner = p.anyOf?.find((a) => a.description !== undefined) ?? p;
    return {
      name,
      type: typeOf(p),
      required: required.has(name) && p.default === undefined,
      default: p.default === undefined ? undefined : JSON.stringify(p.default),
      description: p.description ?? inner.description ?? "",
    };
  });
}
