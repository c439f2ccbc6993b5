import { readFileSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import type { Topology } from "@cclab/fabric";
import { isFinitePattern, TRAFFIC_PATTERNS } from "@cclab/traffic";
import type { z } from "zod";
import { ccPlugins, loadPluginModules } from "../plugins.js";
import { TOPOLOGY_KINDS } from "../topologies.js";
import { joinPath, ScenarioError, type ScenarioIssue } from "./issues.js";
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
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  issues.push(...zodIssues(result.error, prefix));
  return undefined;
}

const allowedList = (names: Iterable<string>) => {
  const list = [...names];
  return list.length === 0 ? "none registered" : list.map((n) => `"${n}"`).join(", ");
};

/** Resolves host names ("H1") to indices in the fields of traffic entries that name hosts. */
const HOST_FIELDS = new Set(["src", "dst", "senders", "hosts", "hotspot", "hotspots", "receivers"]);

function resolveHostNames(value: unknown, topology: Topology, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveHostNames(v, topology, key));
  if (typeof value === "string" && key !== undefined && HOST_FIELDS.has(key)) {
    const index = topology.fabric.hosts.findIndex((h) => h.name === value);
    return index >= 0 ? index : value;
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, resolveHostNames(v, topology, k)]),
    );
  }
  return value;
}

/** Options of {@link resolveScenario}. */
export interface ResolveOptions {
  /**
   * The scenario file's directory: files it names (a trace) are read from there and their
   * contents checked too. Without it those checks wait for the run.
   */
  readonly baseDir?: string;
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
  const issues: ScenarioIssue[] = [];
  const top = parseWith(scenarioSchema, input, [], issues);
  // Step one failed somewhere: still check the parts that parsed, so the user sees as many
  // problems as possible at once.
  const raw = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const plugins = top?.plugins ?? [];
  issues.push(...(await loadPluginModules(plugins)));

  let topology: Topology | undefined;
  let topologyResolved: ResolvedScenario["topology"] | undefined;
  const topoInput = (top?.topology ?? raw.topology) as Record<string, unknown> | undefined;
  if (
    topoInput !== undefined &&
    typeof topoInput === "object" &&
    typeof topoInput.kind === "string"
  ) {
    const { kind, ...params } = topoInput;
    const k = Object.hasOwn(TOPOLOGY_KINDS, kind as string)
      ? TOPOLOGY_KINDS[kind as string]
      : undefined;
    if (k === undefined) {
      issues.push({
        path: "topology.kind",
        message: `unknown topology "${String(kind)}"; allowed: ${allowedList(Object.keys(TOPOLOGY_KINDS))}`,
      });
    } else {
      const p = parseWith(k.params, params, ["topology"], issues);
      if (p !== undefined) {
        try {
          topology = k.build(p);
          topologyResolved = { kind: kind as string, ...(p as Record<string, unknown>) };
        } catch (error) {
          issues.push({ path: "topology", message: (error as Error).message });
        }
      }
    }
  }

  const traffic: TrafficEntry[] = [];
  const trafficInput = (top?.traffic ??
    (Array.isArray(raw.traffic) ? raw.traffic : [])) as unknown[];
  trafficInput.forEach((entry, i) => {
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
    const named = topology === undefined ? rest : resolveHostNames(rest, topology);
    const params = parseWith(p.params, named, ["traffic", i], issues) as
      | Record<string, unknown>
      | undefined;
    if (params === undefined) return;
    if (topology !== undefined) {
      const ctx = {
        hostCount: topology.fabric.hosts.length,
        ...(top === undefined ? {} : { slCount: top.switch.vlCount }),
        ...(readFile === undefined ? {} : { readFile }),
      };
      for (const message of p.check(params as never, ctx)) {
        issues.push({ path: `traffic[${i}]`, message });
      }
    }
    if (top?.run.untilComplete === true && !isFinitePattern(p, params as never)) {
      issues.push({
        path: `traffic[${i}]`,
        message: `pattern "${pattern}" with these parameters never ends, so run.untilComplete cannot be used; set run.durationUs instead (or give the pattern a stop)`,
      });
    }
    traffic.push({ pattern, ...params });
  });

  const cc = resolveCc(top, issues, topology);
  if (top !== undefined && top.run.durationUs === undefined && !top.run.untilComplete) {
    issues.push({
      path: "run",
      message: "give run.durationUs (µs), or run.untilComplete: true for finite traffic",
    });
  }
  if (
    top !== undefined &&
    top.run.durationUs !== undefined &&
    top.run.warmupUs >= top.run.durationUs
  ) {
    issues.push({
      path: "run.warmupUs",
      message: `must be shorter than run.durationUs (${top.run.durationUs} µs), got ${top.run.warmupUs}`,
    });
  }
  if (
    issues.length > 0 ||
    top === undefined ||
    topology === undefined ||
    topologyResolved === undefined
  ) {
    if (issues.length === 0) issues.push({ path: "topology", message: "is required" });
    throw new ScenarioError(issues);
  }
  return {
    scenario: { ...top, topology: topologyResolved, traffic, cc },
    topology,
  };
}

// `cc.switch`: one plugin for every switch, or a list run in order, each on its switches and
// seeing its VLs.
function resolveSwitchCc(
  top: ScenarioTop,
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
      if (vl >= top.switch.vlCount) {
        issues.push({
          path: `cc.switch[${i}].vls`,
          message: `${vl} is not a data VL (switch.vlCount is ${top.switch.vlCount}: 0..${top.switch.vlCount - 1})`,
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
  top: ScenarioTop | undefined,
  issues: ScenarioIssue[],
  topology: Topology | undefined,
): ResolvedScenario["cc"] {
  const none = { switch: null, hosts: [] };
  if (top?.cc === undefined) return none;
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
    return params === undefined ? undefined : { plugin: part.plugin, params };
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
