import { readFileSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import type { Topology } from "@cclab/fabric";
import { isFinitePattern, TRAFFIC_PATTERNS } from "@cclab/traffic";
import type { z } from "zod";
import { buildNetwork } from "../build-network.js";
import { ccPlugins, ccSchemeProblem, loadPluginModules } from "../plugins.js";
import { TOPOLOGY_KINDS } from "../topologies.js";
import { issuesFromError } from "./device-errors.js";
import { joinPath, ScenarioError, type ScenarioIssue } from "./issues.js";
import { documentIssues, MAX_BINS } from "./limits.js";
import { scenarioMessage } from "./messages.js";
import { receiveRateIssues } from "./receive-rates.js";
import { metricsSchema } from "./run.js";
import { type ScenarioTop, scenarioSchema } from "./schema.js";

/** A traffic entry after validation: its pattern's parameters with defaults filled in. */
export type TrafficEntry = { readonly pattern: string } & Readonly<Record<string, unknown>>;

/** A CC assignment after validation. */
export interface CcAssignment {
  readonly plugin: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/**
 * A scenario with every default filled in: what `scenario.resolved.json` holds and what the
 * runner reads. Running it again gives the same results.
 */
/** One of several switch parts: the switches that run it and the data VLs it sees. */
export interface SwitchCcAssignment extends CcAssignment {
  readonly switches: "all" | readonly number[];
  readonly vls?: readonly number[];
}

export interface ResolvedScenario extends Omit<ScenarioTop, "topology" | "traffic" | "cc"> {
  readonly topology: { readonly kind: string } & Readonly<Record<string, unknown>>;
  readonly traffic: readonly TrafficEntry[];
  readonly cc: {
    readonly switch: CcAssignment | readonly SwitchCcAssignment[] | null;
    readonly hosts: readonly (CcAssignment & { readonly hosts: "all" | readonly number[] })[];
  };
}

export interface Resolved {
  readonly scenario: ResolvedScenario;
  readonly topology: Topology;
}

function zodIssues(error: z.ZodError, prefix: readonly PropertyKey[]): ScenarioIssue[] {
  return error.issues.map((issue) => ({
    path: joinPath([...prefix, ...issue.path]),
    message: issue.message,
  }));
}

function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  prefix: readonly PropertyKey[],
  issues: ScenarioIssue[],
): z.output<S> | undefined {
  const result = schema.safeParse(value, { error: scenarioMessage });
  if (result.success) return result.data;
  issues.push(...zodIssues(result.error, prefix));
  return undefined;
}

const allowedList = (names: Iterable<string>) => {
  const list = [...names];
  return list.length === 0 ? "none registered" : list.map((n) => `"${n}"`).join(", ");
};

/** The fields of traffic entries, CC host groups and receive rates that name hosts. */
const HOST_FIELDS = new Set([
  "src",
  "dst",
  "dstHost",
  "senders",
  "hosts",
  "hotspot",
  "hotspots",
  "receivers",
]);

/**
 * `value` with host names ("H1") turned into host indices wherever a field names hosts; a name
 * the topology does not have is an issue at its path (and stays, so the schema says nothing
 * more of it: see `withoutPaths`).
 */
function resolveHostNames(
  value: unknown,
  topology: Topology,
  path: readonly PropertyKey[],
  issues: ScenarioIssue[],
  key?: string,
): unknown {
  if (Array.isArray(value)) {
    return value.map((v, i) => resolveHostNames(v, topology, [...path, i], issues, key));
  }
  if (typeof value === "string" && key !== undefined && HOST_FIELDS.has(key) && value !== "all") {
    const hosts = topology.fabric.hosts;
    const index = hosts.findIndex((h) => h.name === value);
    if (index >= 0) return index;
    const names =
      hosts.length <= 6
        ? hosts.map((h) => h.name).join(", ")
        : `${hosts[0]!.name} … ${hosts.at(-1)!.name}`;
    issues.push({
      path: joinPath(path),
      message: `"${value}" is not a host of this topology; give a host name (${names}) or an index 0..${hosts.length - 1}`,
    });
    return value;
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        resolveHostNames(v, topology, [...path, k], issues, k),
      ]),
    );
  }
  return value;
}

// Issues at the given paths (or below them) left out: a host name already reported.
function withoutPaths(found: ScenarioIssue[], paths: ReadonlySet<string>): ScenarioIssue[] {
  return found.filter(
    (i) =>
      ![...paths].some(
        (p) => i.path === p || i.path.startsWith(`${p}.`) || i.path.startsWith(`${p}[`),
      ),
  );
}

/**
 * Each top-level section of a scenario that parses on its own, with its defaults: when the whole
 * file does not parse, the checks that need one section still run on the sections that do.
 */
function parseSections(input: Record<string, unknown>): Partial<ScenarioTop> {
  const sections: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(scenarioSchema.shape)) {
    const result = (schema as z.ZodType).safeParse(input[key]);
    if (result.success) sections[key] = result.data;
  }
  return sections as Partial<ScenarioTop>;
}

/** Options of {@link resolveScenario}. */
export interface ResolveOptions {
  /**
   * The scenario file's directory: files it names (a trace) are read from there and their
   * contents checked too. Without it those checks wait for the run. `plugins` (package names,
   * relative paths) resolve from there too, or from the working directory without it.
   */
  readonly baseDir?: string;
  /**
   * Where `plugins` resolve from instead of `baseDir`, and the only folder plugin files may be
   * in: a sweep worker gives its own working directory, so a queued job cannot make it import
   * a file from anywhere else.
   */
  readonly pluginDir?: string;
}

/**
 * Validates a parsed scenario file (YAML or JSON) and fills in every default. Throws a
 * {@link ScenarioError} listing every problem found, each with the path of its field.
 */
export async function resolveScenario(
  input: unknown,
  options: ResolveOptions = {},
): Promise<Resolved> {
  const { baseDir } = options;
  const readFile =
    baseDir === undefined
      ? undefined
      : (path: string) => readFileSync(resolvePath(baseDir, path), "utf8");
  // Nesting and prototype keys first: every check below walks the document (limits.ts).
  const limitIssues = documentIssues(input);
  if (limitIssues.length > 0) throw new ScenarioError(limitIssues);
  const issues: ScenarioIssue[] = [];
  const raw = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  // Every check runs on what it needs, so one run of `validate` lists every problem it can find:
  // the topology first (host names in the rest refer to it), then the whole file, then each part.
  const { topology, topologyResolved } = resolveTopology(raw.topology, issues);
  const named = { ...raw };
  const nameIssues: ScenarioIssue[] = [];
  if (topology !== undefined) {
    if (Array.isArray(raw.traffic)) {
      named.traffic = resolveHostNames(raw.traffic, topology, ["traffic"], nameIssues);
    }
    const cc = raw.cc as { hosts?: unknown } | undefined;
    if (typeof cc === "object" && cc !== null && Array.isArray(cc.hosts)) {
      named.cc = {
        ...cc,
        hosts: resolveHostNames(cc.hosts, topology, ["cc", "hosts"], nameIssues),
      };
    }
    const host = raw.host as { receiveRates?: unknown } | undefined;
    if (typeof host === "object" && host !== null && Array.isArray(host.receiveRates)) {
      named.host = {
        ...host,
        receiveRates: resolveHostNames(
          host.receiveRates,
          topology,
          ["host", "receiveRates"],
          nameIssues,
        ),
      };
    }
  }
  const topIssues: ScenarioIssue[] = [];
  const top = parseWith(scenarioSchema, typeof input === "object" ? named : input, [], topIssues);
  // The topology has been checked on its own, against its kind's parameters.
  const reported = new Set([...nameIssues.map((i) => i.path), "topology"]);
  issues.push(...nameIssues, ...withoutPaths(topIssues, reported));
  const sections: Partial<ScenarioTop> = top ?? parseSections(named);
  const { pluginDir } = options;
  const pluginWhere =
    pluginDir !== undefined
      ? { baseDir: pluginDir, confineFilesTo: pluginDir }
      : baseDir !== undefined
        ? { baseDir }
        : {};
  issues.push(...(await loadPluginModules(sections.plugins ?? [], pluginWhere)));

  const traffic = resolveTraffic(named.traffic, sections, topology, readFile, issues, reported);
  const before = issues.length;
  const cc = resolveCc(sections, issues, topology);
  const ccChecked = issues.length === before;
  const run = sections.run;
  if (run !== undefined && run.durationUs === undefined && !run.untilComplete) {
    issues.push({
      path: "run",
      message: "give run.durationUs (µs), or run.untilComplete: true for finite traffic",
    });
  }
  issues.push(...slMappingIssues(sections, topology));
  issues.push(
    ...receiveRateIssues(
      (named.host as { receiveRates?: unknown } | undefined)?.receiveRates,
      topology,
    ),
  );
  const binUs = (sections.metrics ?? metricsSchema.parse({})).binUs;
  if (run?.durationUs !== undefined && run.durationUs / binUs > MAX_BINS) {
    issues.push({
      path: "metrics.binUs",
      message: `gives ${Math.ceil(run.durationUs / binUs)} bins over run.durationUs (${run.durationUs} µs); at most ${MAX_BINS} bins: use binUs ≥ ${run.durationUs / MAX_BINS} µs, got ${binUs}`,
    });
  }
  if (run?.durationUs !== undefined && run.warmupUs >= run.durationUs) {
    issues.push({
      path: "run.warmupUs",
      message: `must be shorter than run.durationUs (${run.durationUs} µs), got ${run.warmupUs}`,
    });
  }
  if (issues.length > 0 || top === undefined || topology === undefined || !topologyResolved) {
    if (issues.length === 0) issues.push({ path: "topology", message: "is required" });
    // The devices' own checks (buffers, PFC headroom, routing) need only the fabric's parts:
    // when those parsed, they run too, so their problems are listed with the others.
    if (topology !== undefined && topologyResolved !== undefined) {
      // A CC section with problems of its own is left out of the devices' check.
      const none = { switch: null, hosts: [] };
      issues.push(...deviceIssues(sections, topology, topologyResolved, ccChecked ? cc : none));
    }
    throw new ScenarioError(issues);
  }
  return {
    scenario: { ...top, topology: topologyResolved, traffic, cc },
    topology,
  };
}

// The topology of `value` (`kind` plus its builder's parameters), built.
function resolveTopology(
  value: unknown,
  issues: ScenarioIssue[],
): { topology?: Topology; topologyResolved?: ResolvedScenario["topology"] } {
  if (value === undefined) {
    issues.push({
      path: "topology",
      message: 'is required: { kind: <a topology>, … } (see "cclab list topologies")',
    });
    return {};
  }
  if (
    typeof value !== "object" ||
    value === null ||
    typeof (value as { kind?: unknown }).kind !== "string"
  ) {
    issues.push({
      path: "topology.kind",
      message: `must name a topology; allowed: ${allowedList(Object.keys(TOPOLOGY_KINDS))}`,
    });
    return {};
  }
  const { kind, ...params } = value as Record<string, unknown>;
  const k = Object.hasOwn(TOPOLOGY_KINDS, kind as string)
    ? TOPOLOGY_KINDS[kind as string]
    : undefined;
  if (k === undefined) {
    issues.push({
      path: "topology.kind",
      message: `unknown topology "${String(kind)}"; allowed: ${allowedList(Object.keys(TOPOLOGY_KINDS))}`,
    });
    return {};
  }
  const p = parseWith(k.params, params, ["topology"], issues);
  if (p === undefined) return {};
  try {
    return {
      topology: k.build(p),
      topologyResolved: { kind: kind as string, ...(p as Record<string, unknown>) },
    };
  } catch (error) {
    issues.push({ path: "topology", message: (error as Error).message });
    return {};
  }
}

// `host.slMapping: destination` gives destination d the SL, and so the VL, d: every host needs
// a data VL of its own, none of them a control VL.
function slMappingIssues(
  sections: Partial<ScenarioTop>,
  topology: Topology | undefined,
): ScenarioIssue[] {
  const sw = sections.switch;
  if (sections.host?.slMapping !== "destination" || sw === undefined || topology === undefined) {
    return [];
  }
  const hosts = topology.fabric.hosts.length;
  if (sw.vlCount < hosts) {
    return [
      {
        path: "host.slMapping",
        message: `"destination" puts each destination host on a VL of its own: needs switch.vlCount ≥ ${hosts} (the host count), got ${sw.vlCount}`,
      },
    ];
  }
  return sw.controlVls
    .filter((vl) => vl < hosts)
    .map((vl) => ({
      path: "switch.controlVls",
      message: `${vl} carries destination ${vl}'s data under host.slMapping "destination": control VLs must be ≥ ${hosts} (the host count)`,
    }));
}

// Each traffic entry against its pattern's schema and checks.
function resolveTraffic(
  value: unknown,
  sections: Partial<ScenarioTop>,
  topology: Topology | undefined,
  readFile: ((path: string) => string) | undefined,
  issues: ScenarioIssue[],
  reported: ReadonlySet<string>,
): TrafficEntry[] {
  const traffic: TrafficEntry[] = [];
  const entries = Array.isArray(value) ? (value as unknown[]) : [];
  entries.forEach((entry, i) => {
    if (typeof entry !== "object" || entry === null) return;
    const { pattern, ...rest } = entry as Record<string, unknown>;
    if (typeof pattern !== "string") return;
    const p = Object.hasOwn(TRAFFIC_PATTERNS, pattern) ? TRAFFIC_PATTERNS[pattern] : undefined;
    if (p === undefined) {
      issues.push({
        path: `traffic[${i}].pattern`,
        message: `unknown traffic pattern "${pattern}"; allowed: ${allowedList(Object.keys(TRAFFIC_PATTERNS))}`,
      });
      return;
    }
    const entryIssues: ScenarioIssue[] = [];
    const params = parseWith(p.params, rest, ["traffic", i], entryIssues) as
      | Record<string, unknown>
      | undefined;
    issues.push(...withoutPaths(entryIssues, reported));
    if (params === undefined) return;
    if (topology !== undefined) {
      const ctx = {
        hostCount: topology.fabric.hosts.length,
        ...(sections.switch === undefined ? {} : { slCount: sections.switch.vlCount }),
        ...(readFile === undefined ? {} : { readFile }),
      };
      for (const message of p.check(params as never, ctx)) {
        issues.push({ path: `traffic[${i}]`, message });
      }
    }
    if (sections.run?.untilComplete === true && !isFinitePattern(p, params as never)) {
      issues.push({
        path: `traffic[${i}]`,
        message: `pattern "${pattern}" with these parameters never ends, so run.untilComplete cannot be used; set run.durationUs instead (or give the pattern a stop)`,
      });
    }
    traffic.push({ pattern, ...params });
  });
  return traffic;
}

// The devices' checks of a scenario that has other problems, when its fabric parts parsed.
function deviceIssues(
  sections: Partial<ScenarioTop>,
  topology: Topology,
  topologyResolved: ResolvedScenario["topology"],
  cc: ResolvedScenario["cc"],
): ScenarioIssue[] {
  const { switch: sw, host, flowControl, seed } = sections;
  if (sw === undefined || host === undefined || flowControl === undefined) return [];
  const metrics = sections.metrics ?? metricsSchema.parse({});
  const scenario = {
    name: "check",
    description: "",
    seed: seed ?? 1,
    plugins: [],
    topology: topologyResolved,
    flowControl,
    switch: sw,
    host,
    cc,
    traffic: [],
    run: { untilComplete: true, warmupUs: 0 },
    metrics,
  } as unknown as ResolvedScenario;
  try {
    buildNetwork({ scenario, topology });
    return [];
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) return issuesFromError(error);
    throw error;
  }
}

// `cc.switch`: one plugin for every switch, or a list run in order, each on its switches and
// seeing its VLs.
function resolveSwitchCc(
  top: Partial<ScenarioTop>,
  checkPart: (
    part: { plugin: string; params: Record<string, unknown> },
    path: PropertyKey[],
  ) => CcAssignment | undefined,
  issues: ScenarioIssue[],
  topology: Topology | undefined,
): ResolvedScenario["cc"]["switch"] {
  const input = top.cc?.switch;
  // null: no switch plugin, as a resolved scenario writes it.
  if (input === undefined || input === null) return null;
  if (!Array.isArray(input)) return checkPart(input, ["cc", "switch"]) ?? null;
  const list: SwitchCcAssignment[] = [];
  input.forEach((entry, i) => {
    const part = checkPart(entry, ["cc", "switch", i]);
    if (topology !== undefined && entry.switches !== "all") {
      const n = topology.fabric.switches.length;
      for (const s of entry.switches) {
        if (s >= n) {
          issues.push({
            path: `cc.switch[${i}].switches`,
            message: `${s} is not a switch (0..${n - 1})`,
          });
        }
      }
    }
    for (const vl of entry.vls ?? []) {
      const vlCount = top.switch?.vlCount;
      if (vlCount !== undefined && vl >= vlCount) {
        issues.push({
          path: `cc.switch[${i}].vls`,
          message: `${vl} is not a data VL (switch.vlCount is ${vlCount}: 0..${vlCount - 1})`,
        });
      }
    }
    if (part !== undefined) {
      list.push({
        ...part,
        switches: entry.switches,
        ...(entry.vls === undefined ? {} : { vls: entry.vls }),
      });
    }
  });
  return list;
}

function resolveCc(
  top: Partial<ScenarioTop>,
  issues: ScenarioIssue[],
  topology: Topology | undefined,
): ResolvedScenario["cc"] {
  const none = { switch: null, hosts: [] };
  if (top.cc === undefined) return none;
  const registry = ccPlugins();
  const checkPart = (
    part: { plugin: string; params: Record<string, unknown> },
    path: PropertyKey[],
  ) => {
    const plugin = registry.get(part.plugin);
    if (plugin === undefined) {
      issues.push({
        path: joinPath([...path, "plugin"]),
        message: `unknown CC plugin "${part.plugin}"; registered: ${allowedList(registry.keys())} (load plugin packages with the top-level \`plugins\` list)`,
      });
      return undefined;
    }
    const params = parseWith(plugin.params, part.params, [...path, "params"], issues) as
      | Record<string, unknown>
      | undefined;
    if (params === undefined) return undefined;
    // The contract versions of the scheme and the parts this assignment runs, reported here
    // (at the plugin's name) rather than by the network's build.
    const problem = ccSchemeProblem(plugin, params, path[1] === "switch" ? "switch" : "hosts");
    if (problem !== undefined) {
      issues.push({ path: joinPath([...path, "plugin"]), message: problem });
      return undefined;
    }
    return { plugin: part.plugin, params };
  };
  const sw = resolveSwitchCc(top, checkPart, issues, topology);
  const hosts: ResolvedScenario["cc"]["hosts"][number][] = [];
  const seen = new Map<number, number>();
  top.cc.hosts.forEach((group, g) => {
    const part = checkPart(group, ["cc", "hosts", g]);
    if (topology !== undefined) {
      const n = topology.fabric.hosts.length;
      const list = group.hosts === "all" ? Array.from({ length: n }, (_, i) => i) : group.hosts;
      for (const h of list) {
        if (h >= n) {
          issues.push({
            path: `cc.hosts[${g}].hosts`,
            message: `${h} is not a host (0..${n - 1})`,
          });
        } else if (seen.has(h)) {
          issues.push({
            path: `cc.hosts[${g}].hosts`,
            message: `host ${h} is already in cc.hosts[${seen.get(h)}]; a host runs one scheme`,
          });
        } else seen.set(h, g);
      }
    }
    if (part !== undefined) hosts.push({ ...part, hosts: group.hosts });
  });
  return { switch: sw, hosts };
}
