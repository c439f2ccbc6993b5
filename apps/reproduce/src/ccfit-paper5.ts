/**
 * Paper V of the Gran thesis (CCFIT; seed 001 L1893–2149): case #4 on configuration #3, network
 * throughput of 1Q, ITh, FBICM, CCFIT and VOQnet with 1, 4 and 6 congestion trees (Fig. 8,
 * L2079–2083).
 */
import { lineFigure } from "@cclab/plot";
import {
  type Config,
  norm,
  PATTERNS,
  type Pattern,
  runScheme,
  type Scheme,
  type SchemeRun,
  TREES,
} from "./ecocc-runs.js";
import { type Experiment, type Finding, fmt, signedPct } from "./experiment.js";
import type { Override } from "./scenario-file.js";

const SEED = "Gran PhD thesis (seed 001_7d04a2bae72754e7.txt), Paper V";

/** Configuration #3 of Table I (L2037): a 4-ary 3-tree, 2.5 GB/s links, 64 KB inputs. */
const CONFIG3: Config = { id: 3, hosts: 64, label: "#3 (64 nodes)", linkGbps: 20 };
const file = (p: Pattern) => `ecocc/paper5-trees${TREES[p]}-64.yaml`;

const ccfit = (variant: "ccfit" | "fbicm") => ({
  switch: { plugin: "ecocc", params: { variant } },
  hosts: [{ plugin: "ecocc", params: { variant } }],
});
/** ITh (L2065): IB CC on 8 VOQs, High/Low 4/2 packets, CCTI_Timer 8 µs, Marking_Rate "85 %". */
const ITH = {
  preset: "paper3-hardware",
  thresholdMapping: "voq",
  thresholdHighBytes: 4 * 2048,
  thresholdLowBytes: 2 * 2048,
  markingRate: 0,
  cctiTimerUs: 8,
  timer: "per-flow",
};

/** Paper V's schemes (L2063–2067), as overrides of the shipped (CCFIT) scenarios. */
const SCHEMES = [
  {
    id: "1q",
    label: "1Q",
    overrides: [
      ["cc", {}],
      ["switch.queueing", "1q"],
    ],
  },
  {
    id: "ith",
    label: "ITh",
    overrides: [
      [
        "cc",
        {
          switch: { plugin: "infiniband", params: ITH },
          hosts: [{ plugin: "infiniband", params: ITH }],
        },
      ],
    ],
  },
  { id: "fbicm", label: "FBICM", overrides: [["cc", ccfit("fbicm")]] },
  { id: "ccfit", label: "CCFIT", overrides: [] },
  {
    id: "voqnet",
    label: "VOQnet",
    overrides: [
      ["cc", {}],
      ["switch.vlCount", 64],
      ["host.slMapping", "destination"],
      ["switch.buffer.bytesPerPortVl", 4096],
    ],
  },
] as const satisfies readonly Scheme[];
type Id = (typeof SCHEMES)[number]["id"];
type Means = Record<Id, number>;

const CLOSE = 0.05;
const AHEAD = 0.01;
const FAR_AHEAD = 0.1;

const PAPER: Record<Pattern, string> = {
  1: "CCFIT ≈ FBICM, close to VOQnet; ITh does not cope (Fig. 8a, L2079)",
  2: "CCFIT ≫ FBICM (FBICM struggles, HoL blocking in the NFQs), 1Q worst (Fig. 8b, L2081)",
  3: "CCFIT > FBICM, ITh needs more time (Fig. 8c, L2083)",
};

function finding(p: Pattern, m: Means): Finding {
  const gt = (a: Id, b: Id, by: number) => m[a] >= m[b] * (1 + by);
  const rs =
    p === 1
      ? [
          { text: "CCFIT ≈ FBICM", holds: Math.abs(m.ccfit - m.fbicm) <= CLOSE * m.fbicm },
          { text: "CCFIT ≈ VOQnet", holds: Math.abs(m.ccfit - m.voqnet) <= CLOSE * m.voqnet },
          { text: "CCFIT ≫ ITh", holds: gt("ccfit", "ith", FAR_AHEAD) },
        ]
      : p === 2
        ? [
            { text: "CCFIT ≫ FBICM", holds: gt("ccfit", "fbicm", FAR_AHEAD) },
            {
              text: "1Q worst",
              holds: SCHEMES.every((s) => s.id === "1q" || gt(s.id, "1q", AHEAD)),
            },
          ]
        : [{ text: "CCFIT > FBICM", holds: gt("ccfit", "fbicm", AHEAD) }];
  const failed = rs.filter((r) => !r.holds).map((r) => r.text);
  return {
    what: `config ${CONFIG3.label}, case #4 with ${TREES[p]} congestion tree${p === 1 ? "" : "s"}: mean network throughput`,
    paper: PAPER[p],
    ours: SCHEMES.map((s) => `${s.label} ${norm(m[s.id])}`).join(", "),
    deviation: failed.length === 0 ? "same" : `not: ${failed.join("; ")}`,
    holds: failed.length === 0,
    tolerance: `≈ within ${CLOSE * 100} %; > at least ${AHEAD * 100} % more; ≫ at least ${FAR_AHEAD * 100} % more`,
  };
}

export const ccfitPaper5: Experiment = {
  id: "ccfit-paper5",
  title: "CCFIT (Paper V): network throughput of 1Q, ITh, FBICM, CCFIT, VOQnet with 1, 4, 6 trees",
  source: `${SEED}: Table I and case #4 (L2037–2067), Fig. 8 (L2079–2083)`,
  scenarios: PATTERNS.map(file),
  notes:
    "Setup (scenarios/ecocc/paper5-trees<n>-64.yaml; packages/cc-ecocc/README.md for the rules and the values the paper leaves out): configuration #3, a 4-ary 3-tree of 64 nodes, 20 Gb/s links (2.5 GB/s) of 6 ns (not given), input-queued switches with one read port, 64 KB per input, one-packet messages of 2048 bytes. Case #4: 48 nodes send uniformly at 100 % all the time, 16 send only during [1, 2] ms to 1, 4 or 6 roots, as fast as the network lets them, and stop injecting at 2 ms (L2059: each keeps at most 4 messages queued, and what it could not queue by then is never sent). Schemes (L2063–2067): 1Q (one FIFO per input, `switch.queueing: 1q`), ITh (the infiniband plugin on VOQs with High/Low 4/2 packets, CCTI_Timer 8 µs; Marking_Rate \"85 % of packets\" is run as 100 %, since the plugin's rate gives 1/(n + 1), and its timer per destination as CCFIT's), FBICM (variant fbicm: 2 CFQs, CAMs at inputs and outputs, no throttling), CCFIT (variant ccfit: Stop/Go 10/4 MTU, 85 % marking, CCTI_Timer 8 µs), VOQnet (a VL of 4 KB per destination, 256 KB per input, L2067). Not run: Fig. 7, 9 and 10 (configurations #1 and #2: the ad hoc two-switch network of Fig. 5 and the flows of cases #1–#3 are given by figures the text does not contain, and its flow list is garbled, L2053–2054), so the parking-lot fairness of Fig. 9–10 is not reproduced.",
  async run({ scale }) {
    const runs: SchemeRun[] = [];
    for (const p of PATTERNS) {
      for (const s of SCHEMES) runs.push(await runScheme(s, p, CONFIG3, scale, [], file(p)));
    }
    const findings = PATTERNS.map((p) =>
      finding(
        p,
        Object.fromEntries(
          runs.filter((r) => r.pattern === p).map((r) => [r.scheme, r.mean]),
        ) as Means,
      ),
    );
    const rows = runs.map(
      (r) =>
        `| ${TREES[r.pattern]} | ${r.label} | ${norm(r.mean)} | ${norm(r.treeMean)} | ${fmt(r.degradedUs, 0)} | ${r.counters.hotQueueMisses ?? ""} |`,
    );
    const window = runs[0]!.treeWindowUs.join(", ");
    const table = [
      `| trees | scheme | mean throughput, whole run | mean, [${window}] µs | µs below 95 % of the level before | CFQ misses |`,
      "|---|---|---|---|---|---|",
      ...rows,
    ].join("\n");
    const figures = PATTERNS.map((p) =>
      lineFigure({
        name: `throughput-trees${TREES[p]}`,
        title: `Paper V case #4, ${TREES[p]} congestion tree${p === 1 ? "" : "s"}: network throughput`,
        subtitle:
          "delivered bits per 20 µs bin / (64 nodes × 20 Gb/s); hot sources during [1, 2] ms",
        xTitle: "time (µs)",
        yTitle: "normalised throughput",
        legendTitle: "scheme",
        step: true,
        xDomain: [0, 4000 * scale],
        points: runs
          .filter((r) => r.pattern === p)
          .flatMap((r) => r.series.map((s) => ({ x: s.atUs, y: s.value, series: r.label }))),
      }),
    );
    const failed = findings.filter((f) => !f.holds).length;
    const controls = failed === 0 ? [] : await controlRuns(scale);
    return {
      findings,
      tables: [table],
      figures,
      ...(failed === 0 ? {} : { explanation: explain(runs, controls) }),
    };
  },
};

/** The detection threshold of the control runs: 24 of the 32 packets an input holds. */
const HIGH_DETECT_PACKETS = 24;

/** A control run of CCFIT or FBICM: `uniformOnly` without hot sources, or a detection threshold. */
interface Control {
  readonly variant: "ccfit" | "fbicm" | "1q";
  readonly pattern: Pattern;
  readonly uniformOnly: boolean;
  readonly detectPackets?: number;
  readonly run: SchemeRun;
}

/**
 * Runs that test the reading of the explanation: CCFIT and FBICM with no hot source at all (the
 * hot streams starting when the run ends), and with a detection threshold of 24 packets.
 */
async function controlRuns(scale: number): Promise<Control[]> {
  const endNs = Math.round(4000 * scale * 1000);
  const quiet = Array.from({ length: TREES[1] }, (_, i): Override[] => [
    [`traffic.${i + 1}.startNs`, endNs],
    [`traffic.${i + 1}.stopNs`, endNs + 1000],
  ]).flat();
  const oneQueue = await runScheme(SCHEMES[0], 1, CONFIG3, scale, quiet, file(1));
  const out: Control[] = [{ variant: "1q", pattern: 1, uniformOnly: true, run: oneQueue }];
  for (const variant of ["ccfit", "fbicm"] as const) {
    const cc = (detectPackets?: number) => ({
      switch: {
        plugin: "ecocc",
        params: { variant, ...(detectPackets === undefined ? {} : { ccfit: { detectPackets } }) },
      },
      hosts: [{ plugin: "ecocc", params: { variant } }],
    });
    const scheme = (id: string, overrides: readonly Override[]): Scheme => ({
      id,
      label: id,
      overrides,
    });
    const uniform = await runScheme(
      scheme("uniform", [["cc", cc()]]),
      1,
      CONFIG3,
      scale,
      quiet,
      file(1),
    );
    out.push({ variant, pattern: 1, uniformOnly: true, run: uniform });
    for (const p of PATTERNS) {
      const s = scheme("detect", [["cc", cc(HIGH_DETECT_PACKETS)]]);
      const run = await runScheme(s, p, CONFIG3, scale, [], file(p));
      out.push({
        variant,
        pattern: p,
        uniformOnly: false,
        detectPackets: HIGH_DETECT_PACKETS,
        run,
      });
    }
  }
  return out;
}

/** What the runs show about CCFIT's detection, where findings fail. */
function explain(runs: readonly SchemeRun[], controls: readonly Control[]): string {
  const at = (p: Pattern, id: Id) => runs.find((r) => r.pattern === p && r.scheme === id)!;
  const list = (id: Id, f: (r: SchemeRun) => string) =>
    PATTERNS.map((p) => `${TREES[p]} tree${p === 1 ? "" : "s"} ${f(at(p, id))}`).join(", ");
  const c = (r: SchemeRun, key: string) => r.counters[key] ?? 0;
  const uniform = (v: Control["variant"]) =>
    controls.find((x) => x.variant === v && x.uniformOnly)!.run;
  const highRun = (v: Control["variant"], p: Pattern) =>
    controls.find((x) => x.variant === v && !x.uniformOnly && x.pattern === p)!.run;
  const high = (v: Control["variant"]) =>
    PATTERNS.map((p) => {
      const r = highRun(v, p);
      return `${TREES[p]} tree${p === 1 ? "" : "s"} ${norm(r.mean)} (${c(r, "rootsDetected")} detections, ${c(r, "hotQueueMisses")} misses)`;
    }).join(", ");
  const change = PATTERNS.flatMap((p) =>
    (["ccfit", "fbicm"] as const).map(
      (v) => c(highRun(v, p), "rootsDetected") / Math.max(1, c(at(p, v), "rootsDetected")) - 1,
    ),
  );
  const pct = (x: number) => `${fmt(x * 100, 0)} %`;
  const ccfitOverFbicm = PATTERNS.map(
    (p) =>
      `${TREES[p]} tree${p === 1 ? "" : "s"} ${signedPct(highRun("ccfit", p).mean / highRun("fbicm", p).mean - 1)}`,
  ).join(", ");
  return [
    `CCFIT detects congestion from the normal queue alone (L1987): ${list("ccfit", (r) => `${c(r, "rootsDetected")} detections`)}, and hot packets found no free CFQ ${list("ccfit", (r) => `${c(r, "hotQueueMisses")}`)} times (FBICM: ${list("fbicm", (r) => `${c(r, "hotQueueMisses")}`)}).`,
    `The uniform traffic alone does this: the same runs with no hot source at all give CCFIT ${c(uniform("ccfit"), "rootsDetected")} detections and ${c(uniform("ccfit"), "hotQueueMisses")} misses (FBICM ${c(uniform("fbicm"), "rootsDetected")} and ${c(uniform("fbicm"), "hotQueueMisses")}), at a mean throughput of ${norm(uniform("ccfit").mean)} (FBICM ${norm(uniform("fbicm").mean)}, 1Q ${norm(uniform("1q").mean)}): on these input-queued switches with one read port the 48 uniform sources at 100 % fill normal queues beyond the detection threshold by head-of-line blocking, so CFQs go to flows that are not congested and the trees' flows find both in use.`,
    `The threshold is not given (L2027, "not too early and not too late"; we use 8 packets). At ${HIGH_DETECT_PACKETS} of the input's 32 packets, CCFIT's mean throughput is ${high("ccfit")} and FBICM's ${high("fbicm")}: the detections stay within ${pct(Math.max(...change.map(Math.abs)))} of those at 8 packets, since a head-of-line-blocked queue fills to the top; CCFIT over FBICM ${ccfitOverFbicm}, and both stay well below VOQnet (${list("voqnet", (r) => norm(r.mean))}).`,
  ].join(" ");
}
