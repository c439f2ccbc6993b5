/**
 * TCD's testbed victim (seed 004_abc94112a2f36164.txt lines 296–321): F0 at 1 Gb/s beside F1 at
 * 8 Gb/s on the link from switch T0 to switch T2, which a congestion behind T2 switches ON and
 * OFF; TCD should detect F0 as undetermined (UE), not congested (CE), on CEE and InfiniBand.
 */
import type { SimulationResult } from "@cclab/sim";
import { type Experiment, type Finding, fmt } from "./experiment.js";
import { runScenario } from "./scenario-file.js";
import { flowFrom, markFractions, percent, points, portFlowControl, SEED } from "./tcd-common.js";

const CEE = "tcd/testbed-cee.yaml";
const IB = "tcd/testbed-ib.yaml";

/** TCD's CE on F0 at most this (our issue's threshold for a flow TCD must not call congested). */
const CE_MAX = 0.005;
/** UE on at least this share of F0's packets: "detected as undetermined" (INFERRED threshold). */
const UE_MIN = 0.5;

interface F0Marks {
  readonly ce: number;
  readonly ue: number;
  readonly packets: number;
}

/** CEE: both code points are in F0's ECN field as delivered. */
function ceeMarks(result: SimulationResult): F0Marks {
  const f0 = flowFrom(result, "A0");
  const m = markFractions(f0);
  return { ce: m.ecnCe, ue: m.ecnUe, packets: f0.deliveredPackets };
}

/**
 * InfiniBand: CE is FECN; UE is in no header, so it is counted by F0's receiver R0, the only
 * host with a receiver part, which answers each UE-only packet with a UE-BECN (`ueBecnSent`).
 */
function ibMarks(result: SimulationResult): F0Marks {
  const f0 = flowFrom(result, "A0");
  const ueBecns = result.summary.totals.ccCounters.ueBecnSent ?? Number.NaN;
  return {
    ce: markFractions(f0).fecn,
    ue: ueBecns / f0.deliveredPackets,
    packets: f0.deliveredPackets,
  };
}

function findingsOf(discipline: string, m: F0Marks): Finding[] {
  return [
    {
      what: `${discipline}: F0's packets marked CE by TCD`,
      paper: "none (F0 not congested)",
      ours: `${percent(m.ce, 2)} of ${m.packets}`,
      deviation: points(m.ce, 0),
      holds: m.ce <= CE_MAX,
      tolerance: "at most 0.5 %",
    },
    {
      what: `${discipline}: F0's packets marked UE by TCD`,
      paper: "F0 undetermined",
      ours: `${percent(m.ue, 1)} of ${m.packets}`,
      deviation: "",
      holds: m.ue >= UE_MIN,
      tolerance: "at least 50 %",
    },
  ];
}

export const tcdTestbed: Experiment = {
  id: "tcd-testbed",
  title: "TCD testbed: victim F0 (1 Gb/s) beside F1 (8 Gb/s) detected as undetermined",
  source: `${SEED}, lines 296–321 (testbed, F0 marking fraction on CEE and InfiniBand)`,
  scenarios: [CEE, IB],
  notes:
    "Fabric: switches T0 and T2 of four 10 Gb/s ports, directly connected (the slides' compact topology); A0→R0 (F0, 1 Gb/s) and A1→R1 (F1, 8 Gb/s) cross T0→T2, which they do not fill. CEE switches serve each output in arrival order (`arbitration: oldest-first`, `readPorts: 32`: output-queued, as a software switch's transmit queue per port); InfiniBand switches round-robin. INFERRED, the slides do not say: the congestion behind T2, here A2 on T2's fourth port sending to R1 at line rate from 100 µs (18 Gb/s offered to R1's link), so T2's input from T0 fills with F1's packets and T0→T2 is paused (CEE) or starved of credits (IB); links of 1 µs, 1000-byte payloads, the ns-3 runs' buffers (432,600 B per input port and VL, XOFF 329,600 B) and max(T_on) 40 µs (the reference code's default); no rate reaction (fixed-rate F0 and F1, greedy A2). T2's input from T0 takes a while to fill, so F0's first packets cross a port that is not yet ON-OFF and carry no mark. Fractions are over all of F0's packets delivered in the 5 ms run. On IB the UE count is F0's receiver's UE-BECNs (IB CC with tcdReaction runs on F0's two hosts only).",
  async run({ scale }) {
    const cee = (await runScenario(CEE, scale)).result;
    const ib = (await runScenario(IB, scale)).result;
    const c = ceeMarks(cee);
    const i = ibMarks(ib);
    const findings = [...findingsOf("CEE", c), ...findingsOf("InfiniBand", i)];
    const row = (name: string, r: SimulationResult, ibRun: boolean) =>
      ["A0", "A1", "A2"].map((src) => {
        const f = flowFrom(r, src);
        const m = markFractions(f);
        return `| ${name} | ${src}→${f.dstName} (${f.group}) | ${fmt(f.windowGbps)} | ${percent(ibRun ? m.fecn : m.ecnCe, 2)} | ${ibRun ? "n/a" : percent(m.ecnUe, 2)} |`;
      });
    const port = (r: SimulationResult) => portFlowControl(r, "T0", "T2");
    const table = [
      "| discipline | flow | Gb/s | CE | UE in header |",
      "|---|---|---|---|---|",
      ...row("CEE", cee, false),
      ...row("InfiniBand", ib, true),
    ].join("\n");
    const failed = findings.filter((f) => !f.holds);
    return {
      findings,
      tables: [table],
      ...(failed.length === 0
        ? {}
        : {
            explanation: [
              `T0→T2 was held ${fmt(port(cee).blockedUs, 0)} µs in ${port(cee).offTransitions} OFF periods on CEE and ${fmt(port(ib).blockedUs, 0)} µs in ${port(ib).offTransitions} on IB. Not holding: ${failed.map((f) => f.what).join("; ")}.`,
              ...(i.ce > CE_MAX
                ? [
                    "F0's CE packets on IB come when T2's input buffer from T0 first fills: until then T0→T2 sends continuously, and once credits run short its first ON periods longer than max(T_on) end TCD's U with a queue not below the one at the resume, so the port enters C and the IB threshold rule marks; we measured the same count in a 2 ms and a 5 ms run, so it belongs to that onset, not to the ON-OFF phase after it.",
                  ]
                : []),
            ].join(" "),
          }),
    };
  },
};
