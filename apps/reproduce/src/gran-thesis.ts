import { type Experiment, type Finding, fmt, pct, within } from "./experiment.js";
import {
  paper4MovingForest,
  paper4NoHotspots,
  paper4SilentForest,
  paper4WindyForest,
} from "./paper4-forests.js";
import { resultTable } from "./result-table.js";
import { type Override, runScenario } from "./scenario-file.js";
import {
  convergenceUs,
  type FlowSeries,
  jain,
  mean,
  parseFlowThroughput,
  sd,
  treatmentVariation,
  window,
} from "./throughput.js";

/** Gran thesis (seed 001) experiments with InfiniBand CC (REPRODUCTIONS.md, `cc-infiniband`). */

const CAP_GBPS = 13; // hosts' PCIe cap, sending and receiving (L1336)
const CONTRIBUTORS = ["H2→H5", "H3→H5", "H6→H5", "H7→H5"];
const VICTIM = "H1→H4";

async function flowsOf(file: string, scale: number, overrides: readonly Override[] = []) {
  const { result } = await runScenario(file, scale, overrides);
  const csv = result.files.get("flow-throughput.csv");
  if (csv === undefined) throw new Error(`${file}: no flow-throughput series`);
  return parseFlowThroughput(csv);
}

function flow(flows: Map<string, FlowSeries>, name: string): FlowSeries {
  const f = flows.get(name);
  if (f === undefined) throw new Error(`no flow ${name} in the run`);
  return f;
}

/** Mean of each flow over the second half of stage `k` (stages of `stageUs`). */
function stageMeans(flows: Map<string, FlowSeries>, names: string[], k: number, stageUs: number) {
  return names.map((n) => mean(window(flow(flows, n), (k + 0.5) * stageUs, (k + 1) * stageUs)));
}

const list = (names: string[], values: number[]) =>
  names.map((n, i) => `${n.split("→")[0]} ${fmt(values[i]!, 1)}`).join(", ");

/** Contributors of stage k (k = 1..4): the first k of F2..F5. */
const activeIn = (k: number) => CONTRIBUTORS.slice(0, k);

function victimFinding(flows: Map<string, FlowSeries>, stageUs: number, paper: string): Finding {
  const perStage = [0, 1, 2, 3, 4].map((k) => stageMeans(flows, [VICTIM], k, stageUs)[0]!);
  const worst = Math.min(...perStage);
  return {
    what: "victim F1 (H1→H4), each stage",
    paper,
    ours: perStage.map((x) => fmt(x, 2)).join(" / "),
    deviation: pct(worst, CAP_GBPS),
    holds: worst >= 0.95 * CAP_GBPS,
    tolerance: "every stage ≥ 95 % of 13 Gb/s",
  };
}

function fairShareFindings(
  flows: Map<string, FlowSeries>,
  stageUs: number,
  stages: number[],
): Finding[] {
  return stages.map((k) => {
    const names = activeIn(k);
    const values = stageMeans(flows, names, k, stageUs);
    const share = CAP_GBPS / k;
    const worst = Math.max(...values.map((v) => Math.abs(v - share) / share));
    return {
      what: `contributors, stage ${k + 1} (${k} to H5)`,
      paper: `equal shares, ≈${fmt(share, 2)} Gb/s each`,
      ours: list(names, values),
      deviation: `worst ${fmt(worst * 100, 1)} % from the share; Jain ${fmt(jain(values), 3)}`,
      holds: worst <= 0.15,
      tolerance: "each within ±15 % of 13/n",
    };
  });
}

const STAGE_US = 50_000;

export const oneSwitchSingle: Experiment = {
  id: "paper2-one-switch-single",
  title: "Paper II, one switch, one threshold: the newest flow wins",
  source: "001 L1037–1075 (Fig. 4)",
  scenarios: ["gran-thesis/one-switch-single-threshold.yaml"],
  async run({ scale }) {
    const stageUs = STAGE_US * scale;
    const flows = await flowsOf("gran-thesis/one-switch-single-threshold.yaml", scale);
    const published = [
      "",
      "",
      "newest H3 a little more than 7, H2 ≈ 6 Gb/s",
      "newest H6 ≈ 2 × H3, H2 in between (a little < 5)",
      "newest H7 largest; the unfairness remains",
    ];
    const findings: Finding[] = [2, 3, 4].map((k) => {
      const names = activeIn(k);
      const values = stageMeans(flows, names, k, stageUs);
      const newest = values[k - 1]!;
      const largest = Math.max(...values);
      return {
        what: `contributors, stage ${k + 1}`,
        paper: published[k]!,
        ours: list(names, values),
        deviation: newest === largest ? "newest largest" : "newest not largest",
        holds: newest === largest,
        tolerance: "the newest contributor has the largest share",
      };
    });
    const last = stageMeans(flows, activeIn(4), 4, stageUs);
    findings.push({
      what: "fairness with four contributors",
      paper: "unfair (H6 about twice H3)",
      ours: `Jain ${fmt(jain(last), 3)}`,
      deviation: jain(last) < 0.97 ? "unfair" : "fair",
      holds: jain(last) < 0.97,
      tolerance: "Jain's index < 0.97",
    });
    const stage3 = await stageThreeMarks(
      "gran-thesis/one-switch-single-threshold.yaml",
      stageUs,
      scale,
    );
    const marks = stage3
      .map(
        (f) =>
          `${f.name} ${f.marks} marks on ${f.packets} packets (${fmt((f.marks / f.packets) * 100, 2)} %), CCTI ${f.cctiEnd} at the stage's end`,
      )
      .join("; ");
    const [h2, h3] = stage3 as [(typeof stage3)[0], (typeof stage3)[0]];
    const rate = (f: typeof h2) => f.marks / f.packets;
    const behind = h2.packets < h3.packets ? h2 : h3;
    const ahead = behind === h2 ? h3 : h2;
    const alike = Math.abs(h2.marks - h3.marks) <= 0.25 * Math.max(h2.marks, h3.marks);
    const why = `${alike ? "The two flows get about the same number of marks, as the thesis's account of a single threshold says (L1065)" : "The two flows get different numbers of marks, where the thesis's account of a single threshold has about the same (L1065)"}${
      rate(behind) > rate(ahead)
        ? `, but ${behind.name}, which falls behind, has more of its packets marked (more of them leave while a VoQ for H5 is above the threshold). Each BECN adds one to the CCTI and the timer takes one away every 150 µs, so a small surplus of marks adds up to a large difference of CCTI.`
        : "."
    }`;
    return {
      findings,
      explanation: `The single threshold is 2 KiB (Threshold 15 = 1/16 of our 32 KiB input buffer), just under one packet: a Port VL is congested whenever one packet waits in any VoQ for it, and a packet is marked when it leaves while the port is congested. Stage 3 (H2 and H3; CCTI at its start ${stage3.map((f) => `${f.name} ${f.cctiStart}`).join(", ")}), counted over the whole stage: ${marks}. ${why} The thesis has the newest flow ahead by 7 to 6 Gb/s at this stage; here ${ahead.name} delivers the more packets. The thesis's buffer size and threshold mapping are not published, and the ordering of the shares is sensitive to both.`,
    };
  },
};

/**
 * Marks, delivered packets and the CCTI at the stage's end of the contributors of stage 3 (the
 * third of `stageUs`), from runs that end with stages 2 and 3.
 */
async function stageThreeMarks(file: string, stageUs: number, scale: number) {
  const upTo = async (stages: number) =>
    (await runScenario(file, scale, [["run.durationUs", stages * stageUs]])).result;
  const before = await upTo(2);
  const after = await upTo(3);
  // Each run's cc-flows.csv, parsed once: the CCTI of flow src→dst in its last sample.
  const lastCcti = (r: typeof after) => {
    const cc = resultTable(r, "cc-flows.csv");
    const [srcCol, dstCol, variable, value] = ["src", "dst", "variable", "value"].map(cc.col) as [
      number,
      number,
      number,
      number,
    ];
    const last = new Map<string, number>();
    for (const row of cc.rows) {
      if (row[variable] === "ccti") last.set(`${row[srcCol]}→${row[dstCol]}`, Number(row[value]));
    }
    return (name: string) => last.get(name) ?? 0;
  };
  const cctiBefore = lastCcti(before);
  const cctiAfter = lastCcti(after);
  return activeIn(2).map((name) => {
    const [src, dst] = name.split("→") as [string, string];
    const of = (r: typeof after) =>
      r.summary.flows.find((f) => f.srcName === src && f.dstName === dst);
    const a = of(after)!;
    const b = of(before);
    return {
      name: src,
      marks: a.marks.fecn - (b?.marks.fecn ?? 0),
      packets: a.deliveredPackets - (b?.deliveredPackets ?? 0),
      cctiStart: cctiBefore(name),
      cctiEnd: cctiAfter(name),
    };
  });
}

/**
 * An experiment whose claim is a protected victim and contributors at equal shares, from one run
 * of `scenario`; `victimPaper` is the paper's victim figure.
 */
function fairSharesExperiment(
  id: string,
  title: string,
  source: string,
  scenario: string,
  victimPaper: string,
): Experiment {
  return {
    id,
    title,
    source,
    scenarios: [scenario],
    async run({ scale }) {
      const stageUs = STAGE_US * scale;
      const flows = await flowsOf(scenario, scale);
      return {
        findings: [
          victimFinding(flows, stageUs, victimPaper),
          ...fairShareFindings(flows, stageUs, [2, 3, 4]),
        ],
      };
    },
  };
}

export const oneSwitchTwo = fairSharesExperiment(
  "paper2-one-switch-two",
  "Paper II, one switch, two thresholds: equal shares",
  "001 L1083–1101 (Fig. 7)",
  "gran-thesis/one-switch-two-thresholds.yaml",
  "≈13 Gb/s throughout",
);

export const parkingLotCc = fairSharesExperiment(
  "paper2-3-parking-lot-cc",
  "Paper II/III parking lot with CC: victim protected, contributors fair",
  "001 L1127–1135 (Paper II Fig. 11), L1336–1354 (Paper III Fig. 7b, 8)",
  "gran-thesis/parking-lot-cc.yaml",
  "≈13 Gb/s throughout (the paper's run without CC, not repeated here: ≈2 Gb/s with 4 contributors, L1344)",
);

/**
 * The joins whose convergence is compared: the third and fourth contributor. The second meets an
 * unthrottled first one, so the two are fair at once with any parameters: that join cannot tell
 * the parameter sets apart.
 */
const LATER_JOINS = [3, 4];

/** Time for the contributors to share fairly after each of LATER_JOINS, µs. */
function convergence(flows: Map<string, FlowSeries>, stageUs: number): (number | null)[] {
  return LATER_JOINS.map((k) =>
    convergenceUs(
      activeIn(k).map((n) => flow(flows, n)),
      k * stageUs,
      (k + 1) * stageUs,
      0.3,
      10,
    ),
  );
}

export const parkingLotSlow: Experiment = {
  id: "paper2-parking-lot-cc-slow",
  title: "Paper II parking lot, Marking_Rate 10 and CCTI_Timer × 10: fair but slow to converge",
  source: "001 L1137–1145 (Fig. 12)",
  scenarios: ["gran-thesis/parking-lot-cc-slow.yaml", "gran-thesis/parking-lot-cc.yaml"],
  async run({ scale }) {
    const fast = convergence(
      await flowsOf("gran-thesis/parking-lot-cc.yaml", scale),
      STAGE_US * scale,
    );
    const slowStage = 10 * STAGE_US * scale;
    const slowFlows = await flowsOf("gran-thesis/parking-lot-cc-slow.yaml", scale);
    const slow = convergence(slowFlows, slowStage);
    const ms = (x: number | null) => (x === null ? "never" : `${fmt(x / 1000, 1)} ms`);
    const findings: Finding[] = LATER_JOINS.map((k, i) => {
      const f = fast[i]!;
      const s = slow[i]!;
      // The claim needs the default run to converge; the slow one may never do so.
      const slower = f !== null && (s === null || s >= f);
      return {
        what: `time to equal shares after contributor ${k} joins`,
        paper:
          "unfair for an extended period after each join (Marking_Rate 1, timer 150 µs: quickly fair)",
        ours: `slow ${ms(s)}, default ${ms(f)}`,
        deviation: f !== null && s !== null ? `${fmt(s / Math.max(f, 1), 1)}× as long` : "—",
        holds: slower,
        tolerance: "at least as long as with the default parameters",
      };
    });
    findings.push(
      ...fairShareFindings(slowFlows, slowStage, [4]).map((f) => ({
        ...f,
        what: `${f.what}, slow parameters`,
      })),
    );
    return {
      findings,
      explanation:
        "The second contributor meets an unthrottled first one, so the two are fair at once with either parameter set; only the third and fourth joins are compared. Converged means the spread (max − min) of the active contributors stays within 30 % of their mean for 10 consecutive 1 ms bins; the stage of the slow run is 500 ms (10 × the default's), as its timer is 10 × longer.",
    };
  },
};

export const paper3Scenario2: Experiment = {
  id: "paper3-scenario2",
  title: "Paper III scenario 2: the cost of CC with only contributors",
  source: "001 L1362–1396 (Table II)",
  scenarios: ["gran-thesis/paper3-scenario2-no-cc.yaml", "gran-thesis/paper3-scenario2-cc.yaml"],
  async run({ scale, quick }) {
    const stageUs = STAGE_US * scale;
    const names = ["H1→H4", "H2→H5", "H3→H6"];
    const stats = async (file: string, overrides: readonly Override[] = []) => {
      const flows = await flowsOf(file, scale, overrides);
      const windows = names.map((n) => window(flow(flows, n), (2 + 0.2) * stageUs, 3 * stageUs));
      return {
        mean: mean(windows.map(mean)),
        sd: mean(windows.map(sd)),
        each: windows.map(mean),
      };
    };
    const off = await stats("gran-thesis/paper3-scenario2-no-cc.yaml");
    const on = await stats("gran-thesis/paper3-scenario2-cc.yaml");
    const change = (on.mean - off.mean) / off.mean;
    // Readings the thesis leaves open, run with the same CC parameters (Paper III Table I):
    // how the switch compares its VoQs with the threshold (its simulator offers three, L830,
    // "a design decision that is left to the switch designer") and the input buffer the
    // threshold is a fraction of (not published for the hardware; 128 KB in Paper VI, L2345).
    const big: Override = ["switch.buffer", { model: "partitioned", bytesPerPortVl: 131_072 }];
    const mapping = (m: string): Override => ["cc.switch.params.thresholdMapping", m];
    const variants: { label: string; overrides: Override[] }[] = [
      { label: "each VoQ against the threshold, 32 KiB per VL (as shipped)", overrides: [] },
      { label: "the VoQs' sum, 32 KiB", overrides: [mapping("sum")] },
      {
        label: "the sum against threshold ÷ contributing inputs, 32 KiB",
        overrides: [mapping("sum-per-input")],
      },
      { label: "each VoQ, 128 KiB per VL", overrides: [big] },
      { label: "the VoQs' sum, 128 KiB", overrides: [big, mapping("sum")] },
      {
        label: "the sum ÷ contributing inputs, 128 KiB",
        overrides: [big, mapping("sum-per-input")],
      },
    ];
    const rows: string[] = [];
    const outcomes: { label: string; change: number; jain: number }[] = [];
    // Quick (the tests): the findings only, without the readings.
    for (const v of quick ? [] : variants) {
      const r =
        v.overrides.length === 0
          ? on
          : await stats("gran-thesis/paper3-scenario2-cc.yaml", v.overrides);
      const c = (r.mean - off.mean) / off.mean;
      outcomes.push({ label: v.label, change: c, jain: jain(r.each) });
      rows.push(
        `| ${v.label} | ${r.each.map((x) => fmt(x, 2)).join(", ")} | ${fmt(c * 100, 1)} % | ${fmt(jain(r.each), 3)} | ${fmt(r.sd / off.sd, 1)}× |`,
      );
    }
    const closest = outcomes.reduce<(typeof outcomes)[number] | undefined>(
      (a, b) =>
        a === undefined || Math.abs(b.change + 0.035) < Math.abs(a.change + 0.035) ? b : a,
      undefined,
    );
    const fairOnes = outcomes.filter((o) => o.jain >= 0.99).map((o) => o.label);
    return {
      findings: [
        {
          what: "mean per flow, no CC",
          paper: "10.428 Gb/s (SD 0.042)",
          ours: `${fmt(off.mean, 3)} Gb/s (SD ${fmt(off.sd, 3)})`,
          deviation: pct(off.mean, 10.42764),
          holds: within(off.mean, 10.42764, 0.05),
          tolerance: "within ±5 %",
        },
        {
          what: "mean per flow with CC, change",
          paper: "10.059 Gb/s, −3.5 %",
          ours: `${fmt(on.mean, 3)} Gb/s, ${fmt(change * 100, 1)} %`,
          deviation: `${fmt((change + 0.035) * 100, 1)} percentage points`,
          holds: Math.abs(change + 0.035) <= 0.05,
          tolerance: "change within ±5 percentage points of −3.5 %",
        },
        {
          what: "SD with CC ÷ SD without",
          paper: "≈42× (1770 vs 42 Mb/s)",
          ours: `${fmt(on.sd / off.sd, 1)}× (${fmt(on.sd, 3)} vs ${fmt(off.sd, 3)} Gb/s)`,
          deviation: on.sd / off.sd >= 10 ? "an order of magnitude or more" : "less",
          holds: on.sd / off.sd >= 10,
          tolerance: "at least 10×",
        },
        {
          what: "fairness with CC",
          paper: "all three treated fairly",
          ours: `Jain ${fmt(jain(on.each), 3)} (${on.each.map((x) => fmt(x, 2)).join(", ")})`,
          deviation: jain(on.each) >= 0.99 ? "fair" : "unfair",
          holds: jain(on.each) >= 0.99,
          tolerance: "Jain's index ≥ 0.99",
        },
      ],
      tables: quick
        ? []
        : [
            [
              "With CC (Paper III Table I), each reading of the switch the thesis leaves open:\n",
              "| threshold against / input buffer | H1, H2, H3 Gb/s | change vs no CC | Jain | SD ÷ SD without |",
              "|---|---|---|---|---|",
              ...rows,
            ].join("\n"),
          ],
      explanation: `With Threshold 15 mapped to 1/16 of our 32 KiB input buffer (2 KiB, less than one 2074-byte packet), one packet waiting in any VoQ for the S1→S2 port puts it in the congestion state, and packets are marked whenever two sources' packets meet there, even far below the link's capacity; the sources are throttled far below their share. The thesis's simulator compares the VoQs with the threshold in one of three ways (L830) and the hardware's buffer is not published, so the table runs each${closest === undefined ? "" : `: the closest to the paper's −3.5 % is "${closest.label}" at ${fmt(closest.change * 100, 1)} %; ${fairOnes.length === 0 ? "none of them is fair (Jain ≥ 0.99)" : `fair (Jain ≥ 0.99): ${fairOnes.map((l) => `"${l}"`).join(", ")}`}`}. ${outcomes.some((o) => o.jain >= 0.99 && Math.abs(o.change + 0.035) <= 0.05) ? "Some reading gives" : "No reading gives"} the paper's small cost (within 5 points) with fair shares at once; the findings above stay on the shipped reading.`,
    };
  },
};

/**
 * The sweep with the switches' thresholds of parking-lot-cc.yaml (`hysteresis`) or with Paper
 * III's Table I (`table-1`: Threshold 15, one threshold).
 */
function paper3Sweep(thresholds: "hysteresis" | "table-1"): Experiment {
  const table1 = thresholds === "table-1";
  return {
    id: `paper3-parameter-sweep-${thresholds}`,
    title: `Paper III parameter study: CCTI_Timer × Marking_Rate on the parking lot (${table1 ? "Table I threshold" : "two thresholds"})`,
    source: "001 L1459–1505 (Figs. 11, 12, 14)",
    scenarios: ["gran-thesis/parking-lot-cc.yaml"],
    async run({ scale, quick }) {
      const timers = quick ? [50, 1000] : [50, 100, 150, 300, 1000, 2000];
      const rates = quick ? [0, 10] : [0, 1, 3, 10];
      // All five flows, 10 ms apart; measured over [60, 260) ms (scaled).
      const startsNs = [0, 10, 20, 30, 40].map((ms) => Math.round(ms * 1e6 * scale));
      const fromUs = 60_000 * scale;
      const toUs = 260_000 * scale;
      const victim = new Map<string, number>();
      const contributors = new Map<string, number>();
      const variation = new Map<string, number>();
      for (const timer of timers) {
        for (const rate of rates) {
          const overrides: Override[] = [
            ["run.durationUs", Math.round(toUs)],
            table1
              ? ["cc.switch.params", { preset: "paper3-hardware", markingRate: rate }]
              : ["cc.switch.params.markingRate", rate],
            ["cc.hosts.0.params.cctiTimerUs", timer],
            ...startsNs.map((ns, i): Override => [`traffic.0.flows.${i}.startNs`, ns]),
          ];
          const flows = await flowsOf("gran-thesis/parking-lot-cc.yaml", 1, overrides);
          const key = `${timer}/${rate}`;
          victim.set(key, mean(window(flow(flows, VICTIM), fromUs, toUs)));
          const c = CONTRIBUTORS.map((n) => flow(flows, n));
          contributors.set(key, mean(c.map((f) => mean(window(f, fromUs, toUs)))));
          variation.set(key, treatmentVariation(c, fromUs, toUs));
        }
      }
      const table = (title: string, values: Map<string, number>, digits: number) =>
        [
          `${title}\n`,
          `| CCTI_Timer µs \\ Marking_Rate | ${rates.join(" | ")} |`,
          `|---|${rates.map(() => "---").join("|")}|`,
          ...timers.map(
            (t) =>
              `| ${t} | ${rates.map((r) => fmt(values.get(`${t}/${r}`)!, digits)).join(" | ")} |`,
          ),
        ].join("\n");
      const low = timers.filter((t) => t < 150);
      const high = timers.filter((t) => t >= 300);
      const lowVictim = Math.max(...low.flatMap((t) => rates.map((r) => victim.get(`${t}/${r}`)!)));
      const highVictim = Math.min(
        ...high.flatMap((t) => rates.filter((r) => r <= 1).map((r) => victim.get(`${t}/${r}`)!)),
      );
      const varAt = (t: number) => mean(rates.map((r) => variation.get(`${t}/${r}`)!));
      const first = timers[0]!;
      const last = timers[timers.length - 1]!;
      return {
        findings: [
          {
            what: "victim with CCTI_Timer below 150 µs, any Marking_Rate",
            paper: "collapses (HOL blocking returns)",
            ours: `at most ${fmt(lowVictim)} Gb/s`,
            deviation: lowVictim < 0.75 * CAP_GBPS ? "collapses" : "does not collapse",
            holds: lowVictim < 0.75 * CAP_GBPS,
            tolerance: "< 75 % of 13 Gb/s at every Marking_Rate",
          },
          {
            what: "victim with CCTI_Timer ≥ 300 µs, Marking_Rate ≤ 1",
            paper: "high (limited by the PCIe cap)",
            ours: `at least ${fmt(highVictim)} Gb/s`,
            deviation: pct(highVictim, CAP_GBPS),
            holds: highVictim >= 0.9 * CAP_GBPS,
            tolerance: "≥ 90 % of 13 Gb/s",
          },
          {
            what: "treatment variation Var, lowest vs highest timer",
            paper: "fairness best with a low timer",
            ours: `${fmt(varAt(first), 3)} at ${first} µs, ${fmt(varAt(last), 3)} at ${last} µs (mean over Marking_Rate)`,
            deviation: varAt(first) < varAt(last) ? "lower at the low timer" : "not lower",
            holds: varAt(first) < varAt(last),
            tolerance: "Var at the lowest timer < Var at the highest",
          },
        ],
        tables: [
          table("Victim F1 mean throughput, Gb/s (all five flows active):", victim, 2),
          table("Contributors' mean throughput, Gb/s:", contributors, 2),
          table("Treatment variation Var (Gb/s²), 1 ms bins:", variation, 3),
        ],
        explanation: `Paper III ran each point on hardware with flows added each second; here all five flows start 10 ms apart and the means are over 200 ms with all active (1 ms bins). ${
          table1
            ? "The switches use Paper III's Table I (Threshold 15, one threshold: 2 KiB on our 32 KiB buffers, less than a packet) with the swept Marking_Rate. The trend is the reverse of the paper's: a packet waiting at the S1→S2 port from another input already counts as congestion there, so the victim's own packets are marked, and long timers keep it throttled (1.5 Gb/s at 2000 µs). This, and the other Table I deviations, point at our Threshold mapping being too low for the hardware's."
            : "The switches use the two thresholds of parking-lot-cc.yaml (8 KiB / 1.5 KiB) with the swept Marking_Rate. The victim falls below 75 % of 13 Gb/s only with a short timer and a high Marking_Rate (50 µs, 10); with timers of 1000 µs and more it loses throughput at the low Marking_Rates instead, most at 2000 µs and Marking_Rate 0 (see the victim table). Fairness (Var) does get worse with long timers, as in the paper."
        }`,
      };
    },
  };
}

export const GRAN_THESIS: readonly Experiment[] = [
  oneSwitchSingle,
  oneSwitchTwo,
  parkingLotCc,
  parkingLotSlow,
  paper3Scenario2,
  paper3Sweep("hysteresis"),
  paper3Sweep("table-1"),
  paper4NoHotspots,
  paper4SilentForest,
  paper4WindyForest,
  paper4MovingForest,
];
