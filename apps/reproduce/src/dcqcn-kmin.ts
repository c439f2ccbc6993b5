/**
 * Why the DCQCN incast's queue sits below Kmin most of the time, where the spec's acceptance
 * test (`../shared/specs/dcqcn.md` §8, INFERRED from the paper's fluid model) expects it mostly
 * between Kmin and Kmax: the `nic` incasts run again under each model choice that the HPCC
 * simulator's code or defaults (spec §6) could make differently from ours, one at a time.
 */
import { INCAST_N, type IncastFigures, runIncasts } from "./dcqcn.js";
import { type Experiment, fmt, mdTable } from "./experiment.js";
import type { Override } from "./scenario-file.js";

interface Reading {
  readonly label: string;
  /** Where the choice comes from (spec §6). */
  readonly source: string;
  readonly overrides: readonly Override[];
  /** Whether the choice makes a flow's rate climb back faster after a cut. */
  readonly fasterRecovery: boolean;
}

const nicHosts = (params: Record<string, unknown>): Override[] => [
  ["cc.hosts.0.params", { preset: "nic", ...params }],
];

const READINGS: readonly Reading[] = [
  {
    label: "as shipped: mark at dequeue, α every 1 µs, increase every 300 µs, F = 1",
    source: "run.py --cc dcqcn (spec §6)",
    overrides: [],
    fasterRecovery: false,
  },
  {
    label: "mark as a packet joins the queue",
    source: "switch.markAt: enqueue (HPCC marks at dequeue)",
    overrides: [["cc.switch.params", { preset: "nic", markAt: "enqueue" }]],
    fasterRecovery: false,
  },
  {
    label: "α every 55 µs",
    source: "HPCC's compiled AlphaResumInterval",
    overrides: nicHosts({ alphaTimerUs: 55 }),
    fasterRecovery: false,
  },
  {
    label: "increase every 55 µs",
    source: "run.py --cc dcqcn_paper RPTimer",
    overrides: nicHosts({ increaseTimerUs: 55 }),
    fasterRecovery: true,
  },
  {
    label: "fast recovery F = 5",
    source: "HPCC's compiled FastRecoveryTimes",
    overrides: nicHosts({ fastRecoverySteps: 5 }),
    fasterRecovery: true,
  },
];

const pct = (x: number) => `${fmt(x * 100, 0)} %`;

export const dcqcnKminReadings: Experiment = {
  id: "dcqcn-kmin-readings",
  title: "DCQCN N:1 incast: the queue against Kmin and Kmax under other model choices",
  source: "../shared/specs/dcqcn.md §6 (HPCC's `nic` variant) and §8 (N:1 incast)",
  scenarios: INCAST_N.map((n) => `dcqcn/incast-${n}.yaml`),
  notes:
    "The shipped `nic` incasts (dcqcn-incast-nic) with one choice changed at a time, each one the HPCC simulator's code or one of its defaults could make differently from the shipped preset (which follows its `run.py --cc dcqcn` at 100 Gb/s). The band is the 100 µs bins of the last half whose queue (every input, data VL) lies in [Kmin, Kmax] = [400 KB, 1600 KB]; the spec's acceptance asks for more than half at every N.",
  async run({ scale }) {
    const rows: string[][] = [];
    const figures: { reading: Reading; figures: IncastFigures[] }[] = [];
    for (const reading of READINGS) {
      const f = await runIncasts("nic", scale, "input-queued", reading.overrides);
      figures.push({ reading, figures: f });
      rows.push([
        reading.label,
        reading.source,
        f.map((x) => pct(x.queueInBand)).join(" / "),
        f.map((x) => pct(x.queueBelowKmin)).join(" / "),
        f.map((x) => `${fmt(x.queueMeanBytes / 1000, 0)}`).join(" / "),
        f.map((x) => `${fmt(x.utilization * 100, 1)}`).join(" / "),
      ]);
    }
    const inBand = figures.filter(({ figures: f }) => f.every((x) => x.queueInBand > 0.5));
    const best = figures.reduce((a, b) =>
      Math.min(...b.figures.map((x) => x.queueInBand)) >
      Math.min(...a.figures.map((x) => x.queueInBand))
        ? b
        : a,
    );
    // Which choices move the band, against the shipped run (mean over N, in points).
    const meanBand = (f: readonly IncastFigures[]) =>
      f.reduce((sum, x) => sum + x.queueInBand, 0) / f.length;
    const shipped = meanBand(figures[0]!.figures);
    const moved = figures.slice(1).map(({ reading, figures: f }) => ({
      label: reading.label,
      fasterRecovery: reading.fasterRecovery,
      points: (meanBand(f) - shipped) * 100,
    }));
    const described = (list: typeof moved) =>
      list
        .map((m) => `${m.label} (${m.points >= 0 ? "+" : "−"}${fmt(Math.abs(m.points), 0)} points)`)
        .join(", ");
    const raise = moved.filter((m) => m.points >= 10);
    const byRecovery = raise.length > 0 && raise.every((m) => m.fasterRecovery);
    const explanation = `Against the shipped run, the share of bins in the band, averaged over N, moves by: ${described(moved)}. ${
      byRecovery
        ? `The choices that raise it by 10 points or more make the rates climb back faster after a cut (more increase events per ms, or several fast-recovery steps toward the target rate before the additive ones), so the recovering sum exceeds C sooner and the queue refills to Kmin sooner: the sawtooth of dcqcn-incast-nic, whose rising edge the shipped 300 µs timer makes slow. The spec's expectation comes from the paper's fluid model with its 55 µs timer; the shipped \`nic\` preset keeps the HPCC simulator's 300 µs for 100 Gb/s, so dcqcn-incast-nic stays "not reproduced" and this table is the reason.`
        : "No choice that speeds the rates' recovery alone explains the band."
    }`;
    return {
      explanation,
      findings: [
        {
          what: "a model choice under which the queue is mostly in [Kmin, Kmax] at every N",
          paper: "mostly between Kmin and Kmax (spec §8)",
          ours:
            inBand.length === 0
              ? `none; the best, "${best.reading.label}", ${best.figures.map((x) => pct(x.queueInBand)).join(" / ")}`
              : inBand.map(({ reading }) => reading.label).join("; "),
          deviation: "",
          holds: inBand.length > 0,
          tolerance: "more than half of the bins at N = 2, 4, 8 and 16",
        },
      ],
      tables: [
        mdTable(
          [
            "model choice",
            "from",
            `in [Kmin, Kmax] (N = ${INCAST_N.join(" / ")})`,
            "below Kmin",
            "queue mean, KB",
            "utilization, %",
          ],
          rows,
        ),
      ],
    };
  },
};
