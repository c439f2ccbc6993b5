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
}

const nicHosts = (params: Record<string, unknown>): Override[] => [
  ["cc.hosts.0.params", { preset: "nic", ...params }],
];

const READINGS: readonly Reading[] = [
  {
    label: "as shipped: mark at dequeue, α every 1 µs, increase every 300 µs, F = 1",
    source: "run.py --cc dcqcn (spec §6)",
    overrides: [],
  },
  {
    label: "mark as a packet joins the queue",
    source: "switch.markAt: enqueue (HPCC marks at dequeue)",
    overrides: [["cc.switch.params", { preset: "nic", markAt: "enqueue" }]],
  },
  {
    label: "α every 55 µs",
    source: "HPCC's compiled AlphaResumInterval",
    overrides: nicHosts({ alphaTimerUs: 55 }),
  },
  {
    label: "increase every 55 µs",
    source: "run.py --cc dcqcn_paper RPTimer",
    overrides: nicHosts({ increaseTimerUs: 55 }),
  },
  {
    label: "fast recovery F = 5",
    source: "HPCC's compiled FastRecoveryTimes",
    overrides: nicHosts({ fastRecoverySteps: 5 }),
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
    return {
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
