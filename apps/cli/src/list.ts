import {
  type CcPlugin,
  ccPluginOrigin,
  ccPlugins,
  importPluginModules,
  type ParamDoc,
  paramDocs,
  readScenarioFile,
  ScenarioError,
  scenarioSchema,
  TOPOLOGY_KINDS,
  TRAFFIC_PATTERNS,
  table,
} from "@cclab/sim";
import { UsageError } from "./errors.js";

/** Scenario sections listed on their own; the other top-level keys are under `scenario`. */
const KEY_SECTIONS = ["switch", "host", "cc", "run", "metrics"] as const;

export const LIST_SECTIONS = [
  "scenario",
  ...KEY_SECTIONS,
  "topologies",
  "traffic",
  "plugins",
] as const;
export type ListSection = (typeof LIST_SECTIONS)[number];

// Units by a key's suffix (the project's naming rule), then by the description's ", unit".
const UNITS: readonly [RegExp, string][] = [
  [/Gbps$/, "Gb/s"],
  [/Mbps$/, "Mb/s"],
  [/Ps$/, "ps"],
  [/Ns$/, "ns"],
  [/Us$/, "µs"],
  [/Ms$/, "ms"],
  [/64B$/, "64 B"],
  [/(^b|B)ytes$/, "bytes"],
  [/Fraction$/, "fraction"],
];

/** The unit of a parameter, from its name or else its description ("" when it has none). */
function unitOf(doc: ParamDoc): string {
  if (doc.type.startsWith("{")) return "";
  const key = doc.name.replace(/\[\]/g, "").split(".").at(-1) ?? "";
  for (const [suffix, unit] of UNITS) if (suffix.test(key)) return unit;
  const said = /(?:^|, )(Gb\/s|Mb\/s|ps|ns|µs|ms|bytes|fraction)\b/.exec(doc.description);
  return said?.[1] ?? "";
}

// Long lists (a 128-entry CCT) shortened to their first entries and their length, long objects
// to "{…}". "-" is a key a preset leaves out (ecocc's throttle under the variants that do not
// throttle).
function shown(json: string): string {
  if (json === "-") return json;
  const value: unknown = JSON.parse(json);
  // An object's keys have rows of their own, which show each default.
  if (typeof value === "object" && value !== null && !Array.isArray(value) && json.length > 40) {
    return "{…}";
  }
  if (!Array.isArray(value) || value.length <= 8) return json;
  const head = value
    .slice(0, 3)
    .map((v) => (typeof v === "number" ? String(Number(v.toPrecision(3))) : JSON.stringify(v)));
  return `[${head.join(", ")}, … ${value.length} entries]`;
}

function defaultOf(d: ParamDoc): string {
  if (d.required) return "(required)";
  if (d.default === undefined) return "-";
  return d.presets === undefined ? shown(d.default) : `${shown(d.default)} (${d.presets.key})`;
}

/** The table of `docs`, then the value of each preset-filled key under every preset. */
function docTable(docs: readonly ParamDoc[], first = "parameter"): string[] {
  if (docs.length === 0) return ["  (no parameters)"];
  const lines = table(
    [`  ${first}`, "type", "default", "unit", "meaning"],
    docs.map((d) => [`  ${d.name}`, d.type, defaultOf(d), unitOf(d), d.description]),
  );
  const preset = docs.filter((d) => d.presets !== undefined);
  if (preset.length === 0) return lines;
  const { key, values } = preset[0]!.presets!;
  const choices = Object.keys(values);
  return [
    ...lines,
    "",
    `  values each ${key} gives the keys marked (${key}) above:`,
    ...table(
      [`    ${first}`, ...choices],
      preset.map((d) => [`    ${d.name}`, ...choices.map((c) => shown(d.presets!.values[c]!))]),
    ),
  ];
}

function entry(name: string, description: string, schema: Parameters<typeof paramDocs>[0]) {
  return [`${name}: ${description}`, ...docTable(paramDocs(schema)), ""];
}

// Where the scenario section's pointers lead: the keys that name a topology, pattern or plugin.
function seeAlso(name: string): string {
  if ((KEY_SECTIONS as readonly string[]).includes(name)) return `; keys: cclab list ${name}`;
  if (/^topology(\.kind)?$/.test(name)) return "; kinds: cclab list topologies";
  if (/^traffic(\[\]\.pattern)?$/.test(name)) return "; patterns: cclab list traffic";
  return "";
}

const TITLES: Record<(typeof KEY_SECTIONS)[number], string> = {
  switch: "Switch (scenario: switch; every switch of the fabric)",
  host: "Host (scenario: host; every host adapter)",
  cc: "Congestion control (scenario: cc; plugins' params: cclab list plugins)",
  run: "Run (scenario: run)",
  metrics: "Metrics (scenario: metrics)",
};

/** The scenario file's keys, by section: `scenario` holds the top-level ones. */
function scenarioText(sections: readonly ListSection[]): string[] {
  const docs = paramDocs(scenarioSchema);
  const top = (d: ParamDoc) => /^[^.[]+/.exec(d.name)![0];
  const out: string[] = [];
  if (sections.includes("scenario")) {
    const rows = docs
      .filter((d) => !(KEY_SECTIONS as readonly string[]).includes(top(d)) || d.name === top(d))
      .map((d) => ({ ...d, description: `${d.description}${seeAlso(d.name)}` }));
    out.push("== Scenario file: top-level keys ==", "", ...docTable(rows, "key"), "");
  }
  for (const section of KEY_SECTIONS) {
    if (!sections.includes(section)) continue;
    const rows = docs.filter((d) => top(d) === section && d.name !== section);
    out.push(`== ${TITLES[section]} ==`, "", ...docTable(rows, "key"), "");
  }
  return out;
}

/**
 * The text of `cclab list [section ...]`: every key of a scenario file by section, then every
 * topology, traffic pattern and CC plugin with its parameters (or only `plugins`, when given).
 */
export function listText(
  sections: readonly ListSection[] = LIST_SECTIONS,
  only?: { readonly plugins: readonly CcPlugin[] },
): string {
  const out = scenarioText(sections);
  if (sections.includes("topologies")) {
    out.push("== Topologies (scenario: topology.kind) ==", "");
    for (const [name, kind] of Object.entries(TOPOLOGY_KINDS)) {
      out.push(...entry(name, kind.description, kind.params));
    }
  }
  if (sections.includes("traffic")) {
    out.push("== Traffic patterns (scenario: traffic[].pattern) ==", "");
    for (const [name, pattern] of Object.entries(TRAFFIC_PATTERNS)) {
      out.push(...entry(name, pattern.description, pattern.params));
    }
  }
  if (sections.includes("plugins")) {
    out.push("== CC plugins (scenario: cc.switch.plugin, cc.hosts[].plugin) ==", "");
    const plugins = only?.plugins ?? [...ccPlugins().values()];
    if (plugins.length === 0) {
      out.push(
        "(none registered: CC plugins come as cc-* packages named in the scenario's `plugins` list)",
        "",
      );
    }
    for (const plugin of plugins) {
      // A plugin that is not built in says where it came from (`--plugin`, the scenario).
      const origin = ccPluginOrigin(plugin);
      const name = origin === "built in" ? plugin.name : `${plugin.name} (${origin})`;
      out.push(...entry(name, plugin.description, plugin.params));
    }
  }
  return out.join("\n");
}

/**
 * Loads the plugin modules `cclab list` is given and returns the plugins they export, so
 * their parameters can be listed: each `--plugin` (a package name or file path, resolved from
 * the working directory as a scenario's `plugins` are from its folder), and the `plugins` of
 * the `--scenario` file (resolved from the scenario's folder). Importing a module runs its
 * code, as `cclab validate` does; the same rules refuse URLs and built-in modules first. A
 * module that cannot be loaded or exports no usable plugin is a `UsageError` (`--plugin`) or
 * a `ScenarioError` at `plugins[i]` (`--scenario`), each naming the module and the problem.
 */
export async function loadListedPlugins(
  values: { readonly plugin?: readonly string[]; readonly scenario?: string },
  cwd: string = process.cwd(),
): Promise<CcPlugin[]> {
  const given = values.plugin ?? [];
  const listed = new Set<CcPlugin>();
  if (given.length > 0) {
    const { issues, plugins } = await importPluginModules(given, { baseDir: cwd });
    if (issues.length > 0) {
      const lines = issues.map((issue) => {
        const i = Number(/^plugins\[(\d+)\]$/.exec(issue.path)?.[1]);
        return `  --plugin ${given[i] ?? ""}: ${issue.message}`;
      });
      throw new UsageError(`cclab list: cannot list the plugins given:\n${lines.join("\n")}`);
    }
    for (const plugin of plugins) listed.add(plugin);
  }
  if (values.scenario !== undefined) {
    const { document, baseDir } = readScenarioFile(values.scenario);
    const specifiers = (document as { plugins?: unknown } | null)?.plugins ?? [];
    if (!Array.isArray(specifiers) || specifiers.some((p) => typeof p !== "string")) {
      throw new ScenarioError([
        { path: "plugins", message: "must be a list of package names and file paths" },
      ]);
    }
    const { issues, plugins } = await importPluginModules(specifiers as string[], { baseDir });
    if (issues.length > 0) throw new ScenarioError(issues);
    for (const plugin of plugins) listed.add(plugin);
  }
  return [...listed];
}
