/**
 * The runs of Paper VI's synthetic experiments (Gran thesis, seed 001 L2333–2382): one shipped
 * scenario per configuration and traffic pattern (scenarios/ecocc/pattern<p>-<nodes>.yaml, EcoCC
 * as shipped), each scheme set by overrides, and what the paper plots of them: the network
 * throughput normalised to the fabric's capacity over time, and, for the isolation schemes, the
 * input ports with no free hot queue (S9.1, L2583–2593).
 */
import type { SimulationResult } from "@cclab/sim";
import { fmt } from "./experiment.js";
import { resultTable } from "./result-table.js";
import { type Override, runScenario } from "./scenario-file.js";

export const PATTERNS = [1, 2, 3] as const;
export type Pattern = (typeof PATTERNS)[number];
/** A fabric of the papers' tables: its number, nodes, label and link rate. */
export interface Config {
  readonly id: number;
  readonly hosts: number;
  readonly label: string;
  readonly linkGbps: number;
}
/** Paper VI's Table 1 (L2337–2340), 5 GB/s links (L2333). */
export const CONFIGS: readonly Config[] = [
  { id: 1, hosts: 64, label: "#1 (64 nodes)", linkGbps: 40 },
  { id: 2, hosts: 256, label: "#2 (256 nodes)", linkGbps: 40 },
];

const ecocc = (variant: "ecocc" | "hfdi" | "ccfit" | "fbicm") => ({
  switch: { plugin: "ecocc", params: { variant } },
  hosts: [{ plugin: "ecocc", params: { variant } }],
});
const IB_ITH = {
  switch: { plugin: "infiniband", params: { preset: "paper3-hardware" } },
  hosts: [{ plugin: "infiniband", params: { preset: "paper3-hardware" } }],
};

export interface Scheme {
  readonly id: string;
  readonly label: string;
  /** The changes to the shipped scenario, or a function of the configuration giving them. */
  readonly overrides: readonly Override[] | ((c: Config) => readonly Override[]);
}

/**
 * VOQnet as Paper VI models it (L2346–2349): a VL per destination, each with its own 128 KiB
 * buffer and credits at every input (`switch.vlCount` = the nodes, `host.slMapping:
 * destination`).
 */
const voqnet = (c: Config): readonly Override[] => [
  ["cc", {}],
  ["switch.vlCount", c.hosts],
  ["host.slMapping", "destination"],
];

/** The schemes of Table 3 (L2344–2362), as overrides of the shipped (EcoCC) scenarios. */
export const SCHEMES = [
  { id: "1vl", label: "1VL", overrides: [["cc", {}]] },
  { id: "ib-ith", label: "IB-ITh", overrides: [["cc", IB_ITH]] },
  { id: "voqnet", label: "VOQnet", overrides: voqnet },
  { id: "hfdi", label: "HFDI", overrides: [["cc", ecocc("hfdi")]] },
  { id: "ecocc", label: "EcoCC", overrides: [] },
] as const satisfies readonly Scheme[];
export type SchemeId = (typeof SCHEMES)[number]["id"];

/**
 * The runs of Fig. 11 (S9.2, L2599): every scheme on switches with a single read port; HFDI
 * then has one normal queue and 2 hot queues with 2 CAM lines per input (FBICM's organisation),
 * and CCFIT is Paper V's scheme on that switch.
 */
export const SINGLE_READ_PORT_SCHEMES = [
  SCHEMES[0],
  SCHEMES[1],
  SCHEMES[2],
  { id: "fbicm", label: "HFDI (1 NFQ + 2 HPQs)", overrides: [["cc", ecocc("fbicm")]] },
  { id: "ccfit", label: "CCFIT", overrides: [["cc", ecocc("ccfit")]] },
] as const satisfies readonly Scheme[];
export type SingleReadPortId = (typeof SINGLE_READ_PORT_SCHEMES)[number]["id"];

/** Times of the shipped scenarios, µs: the hot sources send during [1, 2] ms of a 4 ms run. */
const HOT_FROM_US = 1000;
const HOT_TO_US = 2000;
const RUN_US = 4000;
/** Where the trees live: from the hot sources' start to 1 ms after they stop, µs. */
export const TREE_WINDOW_US = [1000, 3000] as const;

export const scenarioFile = (p: Pattern, c: Config) => `ecocc/pattern${p}-${c.hosts}.yaml`;

export interface SchemeRun {
  readonly scheme: string;
  readonly label: string;
  readonly pattern: Pattern;
  readonly config: Config;
  /** Normalised network throughput per bin: delivered bits / (hosts × 40 Gb/s). */
  readonly series: readonly { readonly atUs: number; readonly value: number }[];
  /** Mean of `series` over the whole run and over the trees' window. */
  readonly mean: number;
  readonly treeMean: number;
  /** The trees' window at this run's scale, µs. */
  readonly treeWindowUs: readonly [number, number];
  /**
   * Time in the trees' window with the throughput below 95 % of its mean over the half
   * millisecond (scaled) before the hot sources start, µs: how long the trees cost throughput.
   */
  readonly degradedUs: number;
  /** Input ports without a free hot queue per bin (isolation schemes), else undefined. */
  readonly outOfHotQueues?: readonly { readonly atUs: number; readonly ports: number }[];
  /** Mean and peak of that count over the trees' window. */
  readonly outMean?: number;
  readonly outPeak?: number;
  /**
   * Of that mean, the inputs that face a host, split by the host's traffic: a hot source, or a
   * uniform source (every host not a hot source).
   */
  readonly outAtHotHosts?: number;
  readonly outAtUniformHosts?: number;
  /** The run's counters (summary.json's cc counters). */
  readonly counters: Readonly<Record<string, number>>;
}

/** Congestion trees of each pattern (Table 2; Paper V's case #4 runs the same counts). */
export const TREES: Record<Pattern, number> = { 1: 1, 2: 4, 3: 6 };

/** Messages a hot source keeps queued when it stops generating at 2 ms (Paper V's scenarios). */
export const HOT_QUEUE_LIMIT_MESSAGES = 4;

/**
 * Overrides that make the hot sources of pattern `p` stop generating at 2 ms, as Paper V's case #4
 * says its sources "stop injecting" (L2059): each keeps at most a few messages queued and what it
 * could not queue by then is never sent. The shipped Paper VI scenarios keep the backlog instead.
 */
export const hotSourcesStop = (p: Pattern): Override[] =>
  Array.from(
    { length: TREES[p] },
    (_, i): Override => [`traffic.${i + 1}.queueLimitMessages`, HOT_QUEUE_LIMIT_MESSAGES],
  );

/**
 * Runs `scheme` on pattern `p` of configuration `c` (`file`: the shipped scenario, by default
 * Paper VI's of that pattern and configuration), every time scaled by `scale`, with `extra`
 * overrides (e.g. single read ports).
 */
export async function runScheme(
  scheme: Scheme,
  p: Pattern,
  c: Config,
  scale: number,
  extra: readonly Override[] = [],
  file = scenarioFile(p, c),
): Promise<SchemeRun> {
  const hotspots = TREES[p];
  const timing: Override[] =
    scale === 1
      ? []
      : [
          ["run.durationUs", Math.round(RUN_US * scale)],
          ...Array.from({ length: hotspots }, (_, i): Override[] => [
            [`traffic.${i + 1}.startNs`, Math.round(HOT_FROM_US * 1000 * scale)],
            [`traffic.${i + 1}.stopNs`, Math.round(HOT_TO_US * 1000 * scale)],
          ]).flat(),
        ];
  const own = typeof scheme.overrides === "function" ? scheme.overrides(c) : scheme.overrides;
  const { result } = await runScenario(file, 1, [...timing, ...extra, ...own]);
  const capacityGbps = c.hosts * c.linkGbps;
  const { rows, col } = resultTable(result, "host-throughput.csv");
  const perBin = new Map<number, number>();
  for (const r of rows) {
    const at = Number(r[col("bin_start_us")]);
    perBin.set(at, (perBin.get(at) ?? 0) + Number(r[col("gbps")]));
  }
  const series = [...perBin]
    .sort((a, b) => a[0] - b[0])
    .map(([atUs, gbps]) => ({ atUs, value: gbps / capacityGbps }));
  const [from, to] = TREE_WINDOW_US.map((t) => t * scale) as [number, number];
  const inTrees = (at: number) => at >= from && at < to;
  const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  const counters = result.summary.totals.ccCounters;
  const base = {
    scheme: scheme.id,
    label: scheme.label,
    pattern: p,
    config: c,
    series,
    mean: mean(series.map((s) => s.value)),
    treeMean: mean(series.filter((s) => inTrees(s.atUs)).map((s) => s.value)),
    treeWindowUs: [from, to] as const,
    degradedUs: degradedUs(series, from, to, scale),
    counters,
  };
  if (!result.files.has("cc-queues.csv")) return base;
  const hostOf = hostFacingInputs(result);
  const hotSenders = new Set(
    result.scenario.traffic.flatMap((t) =>
      t.pattern === "hotspot" ? ((t as { senders?: readonly number[] }).senders ?? []) : [],
    ),
  );
  const q = resultTable(result, "cc-queues.csv");
  const out = new Map<number, number>();
  const windowBins = new Set<number>();
  let atHot = 0;
  let atUniform = 0;
  for (const r of q.rows) {
    if (r[q.col("variable")] !== "freeHotQueues") continue;
    const at = Number(r[q.col("time_us")]);
    const none = Number(r[q.col("value")]) === 0;
    out.set(at, (out.get(at) ?? 0) + (none ? 1 : 0));
    if (!inTrees(at)) continue;
    windowBins.add(at);
    const host = hostOf.get(r[q.col("port_name")]!);
    if (!none || host === undefined) continue;
    if (hotSenders.has(host)) atHot++;
    else atUniform++;
  }
  const outOfHotQueues = [...out]
    .sort((a, b) => a[0] - b[0])
    .map(([atUs, ports]) => ({ atUs, ports }));
  const window = outOfHotQueues.filter((s) => inTrees(s.atUs)).map((s) => s.ports);
  const bins = Math.max(1, windowBins.size);
  return {
    ...base,
    outOfHotQueues,
    outMean: mean(window),
    outPeak: Math.max(0, ...window),
    outAtHotHosts: atHot / bins,
    outAtUniformHosts: atUniform / bins,
  };
}

/** Switch inputs that face a host (ports.csv's peer `H<index>`), by port name, to the host. */
function hostFacingInputs(result: SimulationResult): Map<string, number> {
  const p = resultTable(result, "ports.csv");
  const hosts = new Map<string, number>();
  for (const r of p.rows) {
    const peer = r[p.col("peer")]!;
    if (/^H\d+$/.test(peer)) hosts.set(r[p.col("port_name")]!, Number(peer.slice(1)));
  }
  return hosts;
}

function degradedUs(
  series: readonly { readonly atUs: number; readonly value: number }[],
  from: number,
  to: number,
  scale: number,
): number {
  const before = series.filter((s) => s.atUs >= from - 500 * scale && s.atUs < from);
  const level = before.reduce((sum, s) => sum + s.value, 0) / Math.max(1, before.length);
  const bins = series.filter((s) => s.atUs >= from && s.atUs < to);
  const binUs = series.length > 1 ? series[1]!.atUs - series[0]!.atUs : 0;
  return bins.filter((s) => s.value < 0.95 * level).length * binUs;
}

/** "0.75" */
export const norm = (x: number) => fmt(x, 3);
