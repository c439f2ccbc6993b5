/**
 * Santos, Turner and Janakiraman's slides on end-to-end congestion control for SANs (HP Labs;
 * seed 002_fea465e6cd934ce6.txt). The slides' graphs are lost: what their text states
 * (spreading avoided, which marking is fairer, which response recovers faster) is compared.
 */
import type { Figure } from "@cclab/plot";
import { lineFigure } from "@cclab/plot";
import type { SimulationResult } from "@cclab/sim";
import { type Experiment, type Finding, fmt, mdTable } from "./experiment.js";
import { type Override, runScenario } from "./scenario-file.js";
import { jain, parseFlowThroughput } from "./throughput.js";

const SOURCE = "seed 002_fea465e6cd934ce6.txt";
/** Payload capacity of a 10 Gb/s link with 2048-byte packets of 2022 payload bytes, Gb/s. */
const CAPACITY_GBPS = (10 * 2022) / 2048;
const ROOT = "H10";
const VICTIM = "H22";
const isLocal = (src: number) => src <= 9;
const isRemote = (src: number) => src >= 12 && src <= 21;

const run = async (name: string, scale: number, overrides: readonly Override[] = []) =>
  (await runScenario(`santos/${name}.yaml`, scale, overrides)).result;

/** The other reading of input-triggered roots: every output of the full buffer's packets. */
const ROOTS_ALL: readonly Override[] = [["cc.switch.params.roots", "all"]];

/** What the congestion-spreading runs are judged by, over the run's measured window. */
interface Shares {
  /** Summed over the 10 local / 10 remote flows, Gb/s. */
  readonly local: number;
  readonly remote: number;
  readonly victim: number;
  /** Everything delivered to the root, Gb/s. */
  readonly root: number;
  /** Inter-switch link capacity the remote flows leave to the victim, Gb/s. */
  readonly free: number;
  /** Jain's index over the 20 flows to the root. */
  readonly jain: number;
  /** Fraction of the victim's delivered packets that arrived marked. */
  readonly victimMarked: number;
  /** The same over the remote flows' delivered packets. */
  readonly remoteMarked: number;
}

function shares(result: SimulationResult): Shares {
  const flows = result.summary.flows;
  const sum = (pick: (src: number) => boolean) =>
    flows.filter((f) => f.dstName === ROOT && pick(f.src)).reduce((s, f) => s + f.windowGbps, 0);
  const local = sum(isLocal);
  const remote = sum(isRemote);
  const victimFlow = flows.find((f) => f.srcName === VICTIM);
  const victim = victimFlow?.windowGbps ?? 0;
  const victimMarked =
    victimFlow === undefined || victimFlow.deliveredPackets === 0
      ? 0
      : victimFlow.marks.fecn / victimFlow.deliveredPackets;
  const toRoot = flows.filter((f) => f.dstName === ROOT).map((f) => f.windowGbps);
  const remoteFlows = flows.filter((f) => f.dstName === ROOT && isRemote(f.src));
  const remotePackets = remoteFlows.reduce((n, f) => n + f.deliveredPackets, 0);
  const remoteMarks = remoteFlows.reduce((n, f) => n + f.marks.fecn, 0);
  return {
    local,
    remote,
    victim,
    root: local + remote,
    free: CAPACITY_GBPS - remote,
    jain: jain(toRoot),
    victimMarked,
    remoteMarked: remotePackets === 0 ? 0 : remoteMarks / remotePackets,
  };
}

const MARKINGS = [
  { file: "spreading-naive", label: "naive" },
  { file: "spreading-input", label: "input-triggered" },
  { file: "spreading-io4", label: "input-output, threshold 4" },
  { file: "spreading-io6", label: "input-output, threshold 6" },
  { file: "spreading-io8", label: "input-output, threshold 8" },
  { file: "spreading-io16", label: "input-output, threshold 16" },
] as const;

const victimFinding = (label: string, s: Shares, atLeast: boolean): Finding => {
  const share = s.victim / s.free;
  return {
    what: `${label}: the victim's share of the free inter-switch bandwidth`,
    paper: atLeast ? "spreading avoided (L107–108)" : "the victim cannot use it (L89, L99)",
    ours: `${fmt(s.victim)} of ${fmt(s.free)} Gb/s free (${fmt(share * 100, 1)} %)`,
    deviation: `${fmt(share * 100, 1)} %`,
    holds: atLeast ? share >= 0.8 : share < 0.5,
    tolerance: atLeast ? "≥ 80 %" : "< 50 %",
  };
};

const spreading: Experiment = {
  id: "santos-spreading",
  title: "Santos et al.: congestion spreading and the three marking schemes",
  source: `${SOURCE} L79–198`,
  scenarios: [
    "santos/spreading-none.yaml",
    "santos/spreading-fixed-rates.yaml",
    ...MARKINGS.map((m) => `santos/${m.file}.yaml`),
  ],
  notes:
    "10 local and 10 remote greedy flows to the root H10, a victim H22 → H11 over the inter-switch link; 4-packet input buffers, FIFO inputs, credits. Input-triggered marking takes as root the output of the full buffer's oldest packet (`roots: oldest`); the rows \"roots of every packet in the full buffer\" run the slides' literal reading (`roots: all`). Measured over the second half of a 10 ms run. The free inter-switch bandwidth is the link's payload capacity (9.87 Gb/s) less what the remote flows carry. Sources: rate control alone with FIMD (Part 1's sources react with \"an adequate response function\", L94; with the one-packet window of Part 2 a local source could never fill its own input buffer). The slides' network figure and graphs are lost; the network is our reconstruction (scenario headers).",
  async run({ scale }) {
    const findings: Finding[] = [];
    const rows: string[][] = [];
    const none = shares(await run("spreading-none", scale));
    const row = (label: string, s: Shares) => [
      label,
      fmt(s.local / 10, 3),
      fmt(s.remote / 10, 3),
      fmt(s.remote / s.local, 3),
      fmt(s.jain, 3),
      fmt(s.root),
      fmt(s.victim, 3),
      `${fmt((s.victim / s.free) * 100, 1)} %`,
      `${fmt(s.victimMarked * 100, 1)} %`,
    ];
    rows.push(row("no CC", none));
    findings.push(victimFinding("no CC", none, false));
    const fixed = shares(await run("spreading-fixed-rates", scale));
    rows.push(row("no CC, fixed rates (95 % of fair)", fixed));
    const by = new Map<string, Shares>();
    for (const m of MARKINGS) {
      const s = shares(await run(m.file, scale));
      by.set(m.file, s);
      rows.push(row(m.label, s));
    }
    // The literal reading of the roots (every packet's output), beside the default (the oldest's).
    const literal = new Map<string, Shares>();
    for (const m of MARKINGS.filter((x) => x.file !== "spreading-naive")) {
      const s = shares(await run(m.file, scale, ROOTS_ALL));
      literal.set(m.file, s);
      rows.push(row(`${m.label}, roots of every packet in the full buffer`, s));
    }
    for (const [file, label] of [
      ["spreading-naive", "naive marking"],
      ["spreading-input", "input-triggered marking"],
      ["spreading-io8", "input-output marking (8)"],
    ] as const) {
      findings.push(victimFinding(label, by.get(file)!, true));
    }
    const naive = by.get("spreading-naive")!;
    const input = by.get("spreading-input")!;
    const io8 = by.get("spreading-io8")!;
    const ratio = (s: Shares) => s.remote / s.local;
    findings.push({
      what: "naive marking: local flows get the larger share",
      paper: "remote packets marked more often, local flows get more (L107–111)",
      ours: `remote/local ${fmt(ratio(naive), 3)}`,
      deviation: ratio(naive) < 1 ? "local flows ahead" : "remote flows ahead",
      holds: ratio(naive) < 0.9,
      tolerance: "remote/local < 0.9",
    });
    findings.push({
      what: "fairness, local against remote flows: input-output (8) > input-triggered > naive",
      paper: "input-triggered fairer than naive (L146); input-output fairer still (L172)",
      ours: `remote/local ${fmt(ratio(io8), 3)} > ${fmt(ratio(input), 3)} > ${fmt(ratio(naive), 3)}; Jain ${fmt(io8.jain, 4)}, ${fmt(input.jain, 4)}, ${fmt(naive.jain, 4)}`,
      deviation:
        io8.jain > input.jain && input.jain > naive.jain ? "same order" : "Jain order differs",
      holds:
        ratio(io8) > ratio(input) &&
        ratio(input) > ratio(naive) &&
        io8.jain > input.jain &&
        input.jain > naive.jain,
      tolerance: "both the remote/local ratio and Jain's index in that order",
    });
    findings.push({
      what: "input-output marking (8): high root-link utilisation",
      paper: "high bandwidth utilization (L171)",
      ours: `${fmt(io8.root)} of ${fmt(CAPACITY_GBPS)} Gb/s (${fmt((io8.root / CAPACITY_GBPS) * 100, 1)} %); input-triggered ${fmt(input.root)}`,
      deviation: `${fmt((io8.root / CAPACITY_GBPS) * 100, 1)} %`,
      holds: io8.root >= 0.9 * CAPACITY_GBPS,
      tolerance: "≥ 90 % of the root link's capacity",
    });
    const judged = [naive, input, io8];
    const victimMarks = judged.map((x) => `${fmt(x.victimMarked * 100, 1)} %`).join(", ");
    const remoteMarks = judged.map((x) => `${fmt(x.remoteMarked * 100, 1)} %`).join(", ");
    const pair = (f: (x: Shares) => string, set: ReadonlyMap<string, Shares>) =>
      ["spreading-input", "spreading-io8"].map((k) => f(set.get(k)!)).join(", ");
    const literalMarks = pair((x) => `${fmt(x.victimMarked * 100, 1)} %`, literal);
    const shareOf = (x: Shares) => `${fmt((x.victim / x.free) * 100, 1)} %`;
    const literalShares = pair(shareOf, literal);
    const defaultShares = pair(shareOf, by);
    return {
      findings,
      explanation: `The victim is slowed by the marking itself: its packets wait in the same 4-packet FIFO at switch A's inter-switch input as the remote flows' packets, so when that buffer fills, naive marking marks them (they are in the full buffer), and input-triggered marking marks every packet headed to a root. The root is the output of the full buffer's oldest packet, the one the FIFO is blocked by (our default); the slides' literal "destination of packets at full buffer" (L121–122) makes every packet's output a root, the victim's too when it waits there. Of the victim's delivered packets ${victimMarks} arrived marked (naive, input-triggered, input-output 8), of the remote flows' ${remoteMarks}; with every packet's output a root, ${literalMarks} of the victim's (input-triggered, input-output 8), and its share of the free bandwidth ${literalShares}, against ${defaultShares} with the oldest packet's. Jain's index with every packet's output a root: input-output 8 ${fmt(literal.get("spreading-io8")!.jain, 4)}, input-triggered ${fmt(literal.get("spreading-input")!.jain, 4)}. The buffer still fills often with the root link ${fmt((input.root / CAPACITY_GBPS) * 100, 0)} % busy: the switch on the remote side forwards what queued while the inter-switch link was blocked back to back, four packets fill the buffer, and every such event marks all the switch holds for the root. In the FIFO input the victim's packets also wait behind remote packets for the root, and a victim packet that is the oldest in a full buffer makes its own output a root. A control run bounds what any source could do here: with no marking and every flow to the root held at a fixed 95 % of its fair share (root link ${fmt((fixed.root / CAPACITY_GBPS) * 100, 0)} % busy), the victim gets ${fmt((fixed.victim / fixed.free) * 100, 1)} % of the free bandwidth. Remote packets waiting their turn at the root hold slots of that 4-packet buffer, and the victim's packets, though their output is free, need slots (credits) to stream across the link. So in this switch model the ≥ 80 % target is out of reach for any marking; the slides' switch (buffer organisation, when a slot is freed) and their response parameters (m, R_min) are not given, and we have not found which difference lets their victim through.`,
      tables: [
        mdTable(
          [
            "marking",
            "local flow, Gb/s",
            "remote flow, Gb/s",
            "remote/local",
            "Jain (20 flows)",
            "root link, Gb/s",
            "victim, Gb/s",
            "victim / free",
            "victim's packets marked",
          ],
          rows,
        ),
      ],
    };
  },
};

const RESPONSES = ["aimd", "fimd", "lipd"] as const;

/**
 * Part 1's congestion-spreading network in the Part 2 scenarios: 10 local and 10 remote flows
 * to the root and the greedy victim H22 → H11 (the shipped Part 2 scenarios run 5 + 5, L229).
 */
const PART1_NETWORK: readonly Override[] = [
  ["traffic.0.senders", ["H0", "H1", "H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9"]],
  ["traffic.1.senders", ["H12", "H13", "H14", "H15", "H16", "H17", "H18", "H19", "H20", "H21"]],
  ["traffic.2", { pattern: "hotspot", hotspot: "H11", senders: ["H22"], messageBytes: 2022 }],
];
const LEAVE_US = 5000;

/** Gb/s the local flows deliver to the root per bin, by bin start (µs). */
function localSeries(result: SimulationResult): Map<number, number> {
  const out = new Map<number, number>();
  for (const series of parseFlowThroughput(
    result.files.get("flow-throughput.csv") ?? "",
  ).values()) {
    const [src, dst] = series.name.split("→");
    if (dst !== ROOT || !isLocal(Number(src!.slice(1)))) continue;
    series.binStartUs.forEach((t, i) => {
      out.set(t, (out.get(t) ?? 0) + series.gbps[i]!);
    });
  }
  return out;
}

/**
 * µs after `fromUs` until `series` (Gb/s per bin) reaches 90 % of the root link's capacity as a
 * mean over the next 200 µs; Infinity if it never does before `toUs`.
 */
function recoveryUs(series: ReadonlyMap<number, number>, fromUs: number, toUs: number): number {
  const bins = [...series.keys()].sort((a, b) => a - b);
  const binUs = bins.length > 1 ? bins[1]! - bins[0]! : 1;
  const holdUs = 200;
  for (let t = fromUs; t + holdUs <= toUs; t += binUs) {
    let sum = 0;
    for (let u = t; u < t + holdUs; u += binUs) sum += series.get(u) ?? 0;
    if (sum / (holdUs / binUs) >= 0.9 * CAPACITY_GBPS) return t - fromUs;
  }
  return Number.POSITIVE_INFINITY;
}

const response: Experiment = {
  id: "santos-response",
  title: "Santos et al.: AIMD, FIMD and LIPD: recovery and bursty traffic",
  source: `${SOURCE} L300–382`,
  scenarios: RESPONSES.flatMap((r) => [`santos/recovery-${r}.yaml`, `santos/bursty-${r}.yaml`]),
  notes:
    "Part 2's source: window of one packet, rate by the response function (m = 2, R_min = 1 % of R_max), input-triggered marking. Part 2's network: 5 local and 5 remote flows to the root, 4-packet input buffers (L229, L242), no victim (the response figures' legend, L362–366); the rows \"Part 1's network\" run the congestion-spreading network instead (10 + 10 flows and the victim). Recovery: the remote flows leave at 5 ms (their sources stop; what they queued drains); the time until the local flows carry ≥ 90 % of the root link's capacity as a mean over 200 µs. Bursty: each flow to the root alternates exponential ON and OFF periods of mean 500 µs (the slides' mean is not given); root-link throughput over the last 15 ms of 20.",
  async run({ scale }) {
    const findings: Finding[] = [];
    const rows: string[][] = [];
    const figure: { x: number; y: number; series: string }[] = [];
    const endUs = 10_000 * scale;
    const leaveUs = LEAVE_US * scale;
    const measure = async (r: (typeof RESPONSES)[number], overrides: readonly Override[]) => {
      const local = localSeries(await run(`recovery-${r}`, scale, overrides));
      const b = await run(`bursty-${r}`, scale, overrides);
      const rootGbps = b.summary.flows
        .filter((f) => f.dstName === ROOT)
        .reduce((sum, f) => sum + f.windowGbps, 0);
      const before = [...local].filter(([t]) => t >= leaveUs / 2 && t < leaveUs).map(([, g]) => g);
      const beforeGbps = before.reduce((sum, g) => sum + g, 0) / Math.max(1, before.length);
      return { local, t: recoveryUs(local, leaveUs, endUs), rootGbps, beforeGbps };
    };
    const ours = new Map<string, Awaited<ReturnType<typeof measure>>>();
    const part1 = new Map<string, Awaited<ReturnType<typeof measure>>>();
    const row = (label: string, m: Awaited<ReturnType<typeof measure>>) => [
      label,
      Number.isFinite(m.t) ? fmt(m.t, 0) : "never",
      fmt(m.rootGbps),
      `${fmt((m.rootGbps / CAPACITY_GBPS) * 100, 1)} %`,
    ];
    for (const r of RESPONSES) {
      const m = await measure(r, []);
      ours.set(r, m);
      for (const [x, y] of [...m.local].sort((a, b) => a[0] - b[0])) {
        figure.push({ x: x / 1000, y, series: r.toUpperCase() });
      }
      rows.push(row(r.toUpperCase(), m));
    }
    for (const r of RESPONSES) {
      const m = await measure(r, PART1_NETWORK);
      part1.set(r, m);
      rows.push(row(`${r.toUpperCase()}, Part 1's network`, m));
    }
    const us = (x: number) => (Number.isFinite(x) ? `${fmt(x, 0)} µs` : "never");
    const [a, f, l] = RESPONSES.map((r) => ours.get(r)!.t) as [number, number, number];
    findings.push({
      what: "recovery after the remote flows leave: FIMD and LIPD faster than AIMD",
      paper: "much faster rate recovery than AIMD (L337); FIMD/LIPD outperform AIMD (L391)",
      ours: `local flows to 90 % of the root link: AIMD ${us(a)}, FIMD ${us(f)}, LIPD ${us(l)}`,
      deviation: f <= 0.75 * a && l <= 0.75 * a ? "both faster" : "not both faster",
      holds: f <= 0.75 * a && l <= 0.75 * a,
      tolerance: "each at most 3/4 of AIMD's time",
    });
    const [ba, bf, bl] = RESPONSES.map((r) => ours.get(r)!.rootGbps) as [number, number, number];
    findings.push({
      what: "bursty on/off traffic: root-link throughput, FIMD and LIPD above AIMD",
      paper: "FIMD/LIPD outperform AIMD (L372–391)",
      ours: `AIMD ${fmt(ba)}, FIMD ${fmt(bf)}, LIPD ${fmt(bl)} Gb/s`,
      deviation: `FIMD ${fmt(((bf - ba) / ba) * 100, 1)} %, LIPD ${fmt(((bl - ba) / ba) * 100, 1)} % over AIMD`,
      holds: bf >= 1.05 * ba && bl >= 1.05 * ba,
      tolerance: "each at least 5 % above AIMD",
    });
    // Time to double a local flow's rate before the remote flows leave by unmarked ACKs, from
    // the response functions' parameters: FIMD doubles in one packet time at R_min (m = 2);
    // AIMD gains (m − 1)·R_min per packet time at R_min; LIPD shortens the inter-packet gap by
    // R_min/R_max packet times per packet time at R_max.
    const packetUs = (2048 * 8) / 1e4;
    const rMin = 0.1;
    const perFlow = (m: Awaited<ReturnType<typeof measure>>, flows: number) => m.beforeGbps / flows;
    const doubling = (from: number) => ({
      FIMD: packetUs * (10 / rMin),
      AIMD: (from / rMin) * packetUs * (10 / rMin),
      LIPD: (10 / (2 * from)) * packetUs * (10 / rMin),
    });
    const from2 = perFlow(ours.get("fimd")!, 5);
    const from1 = perFlow(part1.get("fimd")!, 10);
    const d2 = doubling(from2);
    const d1 = doubling(from1);
    const times = (set: ReadonlyMap<string, Awaited<ReturnType<typeof measure>>>) =>
      RESPONSES.map((r) => `${r.toUpperCase()} ${us(set.get(r)!.t)}`).join(", ");
    const burstyOf = (set: ReadonlyMap<string, Awaited<ReturnType<typeof measure>>>) =>
      RESPONSES.map((r) => `${r.toUpperCase()} ${fmt(set.get(r)!.rootGbps)}`).join(", ");
    const best = (set: ReadonlyMap<string, Awaited<ReturnType<typeof measure>>>) =>
      RESPONSES.every((r) => set.get(r)!.rootGbps <= set.get("lipd")!.rootGbps);
    const lipdFirst = best(ours) && best(part1);
    const figures: Figure[] = [
      lineFigure({
        name: "recovery",
        title: "Local flows after the remote flows leave at 5 ms",
        subtitle:
          "payload the 5 local flows deliver to the root H10 per 50 µs bin (Part 2's network)",
        xTitle: "time (ms)",
        yTitle: "Gb/s",
        legendTitle: "response",
        step: true,
        xDomain: [0, endUs / 1000],
        points: figure,
      }),
    ];
    return {
      findings,
      figures,
      explanation: `With the parameters we chose (m = 2, R_min = 1 % of R_max = 0.1 Gb/s; the slides give neither) the three functions need, to double a rate r without a mark: FIMD ${fmt(d2.FIMD, 0)} µs at any r (its rate doubles every 1/R_min), AIMD a time that grows with r, LIPD one that shrinks with r (its gap shrinks linearly in time); to reach r₁ from r₀, AIMD is the faster of the two when r₀·r₁ < (m − 1)·R_min·R_max = 1 (Gb/s)². In Part 2's network a local flow runs at ${fmt(from2, 2)} Gb/s before the remote flows leave (FIMD's run), and doubling it takes AIMD ${fmt(d2.AIMD, 0)} µs, LIPD ${fmt(d2.LIPD, 0)} µs; in Part 1's network (10 local and 10 remote flows and the victim) a local flow runs at ${fmt(from1, 2)} Gb/s, and doubling takes AIMD ${fmt(d1.AIMD, 0)} µs, LIPD ${fmt(d1.LIPD, 0)} µs. Recovery there: ${times(part1)}; bursty root link ${burstyOf(part1)} Gb/s. So which of AIMD and LIPD reclaims freed bandwidth first depends on the flows' rates, i.e. on how many flows share the root link; the slides state 5 + 5 flows for Part 2 (L229, L242).${lipdFirst ? " Under on/off traffic LIPD gains most in both networks, its decreases being small at low rates." : ""} A larger R_min speeds AIMD and LIPD alike; which R_min the slides used is not known.`,
      tables: [
        mdTable(
          [
            "response",
            "local flows to 90 %, µs after 5 ms",
            "bursty: root link, Gb/s",
            "bursty: root busy",
          ],
          rows,
        ),
      ],
    };
  },
};

export const SANTOS: readonly Experiment[] = [spreading, response];
