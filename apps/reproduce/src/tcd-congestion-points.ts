/**
 * TCD's typical scenario validation (seed 004_abc94112a2f36164.txt lines 325–370): the states
 * TCD gives ports P1 and P2 upstream of a congestion. Single congestion point (lines 325–343):
 * "P2: Undetermined → Non-congestion", "P1: Undetermined". Multiple congestion points,
 * "congestion happens in P3 then P2" (lines 347–370): "P2 state: Undetermined → Congestion",
 * "P1 state: Undetermined". Each on CEE (PFC) and InfiniBand (credits).
 *
 * The slides' figure is not in the text, so the fabric is INFERRED (scenarios/tcd/points-*.yaml):
 * a chain S1 → S2 → S3, P1 = S1's port to S2, P2 = S2's port to S3, P3 = S3's port to the
 * receiver R3. The states are TCD's per-queue `state` sampled every bin (`cc-queues`).
 */
import type { SimulationResult } from "@cclab/sim";
import { type Experiment, type Finding, fmt } from "./experiment.js";
import { portRow, resultTable } from "./result-table.js";
import { runScenario } from "./scenario-file.js";
import { SEED } from "./tcd-common.js";

const CASES = ["one", "two"] as const;
type Case = (typeof CASES)[number];
const DISCIPLINES = ["cee", "ib"] as const;
type Discipline = (typeof DISCIPLINES)[number];

const file = (c: Case, d: Discipline) => `tcd/points-${c}-${d}.yaml`;
const DISCIPLINE: Record<Discipline, string> = { cee: "CEE", ib: "InfiniBand" };
const CASE: Record<Case, string> = {
  one: "single congestion point",
  two: "two congestion points (P3, then P2)",
};

/** TCD's state numbers in `cc-queues.csv` (packages/cc-tcd/README.md). */
const STATE_NAMES = ["NC", "CHECK", "U", "C"] as const;
type State = (typeof STATE_NAMES)[number];

/** The ports the slides name: the output of `device` whose cable leads to `peer`. */
const PORTS = {
  P1: { device: "S1", peer: "S2" },
  P2: { device: "S2", peer: "S3" },
  P3: { device: "S3", peer: "R3" },
} as const;
type PortLabel = keyof typeof PORTS;

/** One step of a port's state history: the state and the first sample that showed it. */
interface Step {
  readonly state: State;
  readonly atUs: number;
}

interface PortTrace {
  /** Distinct states in time order, repeats collapsed. */
  readonly steps: readonly Step[];
  /** `queueBytes` at every sample, in time order. */
  readonly queue: readonly { readonly atUs: number; readonly bytes: number }[];
}

type Traces = Record<PortLabel, PortTrace>;

/** P1, P2 and P3's TCD state history on data VL 0, from `cc-queues.csv`. */
function traces(result: SimulationResult): Traces {
  const { col, rows } = resultTable(result, "cc-queues.csv");
  const trace = (label: PortLabel): PortTrace => {
    const port = portRow(result, PORTS[label].device, PORTS[label].peer);
    const name = port.row[port.col("port_name")]!;
    const steps: Step[] = [];
    const queue: { atUs: number; bytes: number }[] = [];
    for (const c of rows) {
      if (c[col("port_name")] !== name || c[col("vl")] !== "0") continue;
      const atUs = Number(c[col("time_us")]);
      const value = Number(c[col("value")]);
      if (c[col("variable")] === "queueBytes") queue.push({ atUs, bytes: value });
      if (c[col("variable")] !== "state") continue;
      const state = STATE_NAMES[value];
      if (state === undefined) throw new Error(`${name}: unknown TCD state ${value}`);
      if (steps.at(-1)?.state !== state) steps.push({ state, atUs });
    }
    if (steps.length === 0) throw new Error(`${result.summary.scenario}: no TCD state of ${name}`);
    return { steps, queue };
  };
  return { P1: trace("P1"), P2: trace("P2"), P3: trace("P3") };
}

/** The states with CHECK dropped and repeats collapsed again: the slides' three states. */
function withoutCheck(steps: readonly Step[]): State[] {
  const out: State[] = [];
  for (const { state } of steps) if (state !== "CHECK" && out.at(-1) !== state) out.push(state);
  return out;
}

const arrow = (states: readonly string[]) => states.join(" → ");

/** E.g. "NC → U (935 µs) → CHECK (5085 µs) → NC"; long histories shortened in the middle. */
function describe(steps: readonly Step[], max = 8): string {
  const one = (s: Step, i: number) => (i === 0 ? s.state : `${s.state} (${fmt(s.atUs, 0)} µs)`);
  if (steps.length <= max) return arrow(steps.map(one));
  const head = steps.slice(0, max - 2).map(one);
  const tail = steps.slice(-2).map((s, i) => one(s, steps.length - 2 + i));
  return `${arrow(head)} → … → ${arrow(tail)} (${steps.length} changes of state)`;
}

/** When the port first entered U, and the first state after that U (if it left it). */
function leftU(steps: readonly Step[]): { enteredUs: number; next?: Step } | undefined {
  const i = steps.findIndex((s) => s.state === "U");
  if (i < 0) return undefined;
  const next = steps[i + 1];
  return { enteredUs: steps[i]!.atUs, ...(next === undefined ? {} : { next }) };
}

/** Whether the states after the first U are all U (CHECK counts as having left U). */
const staysU = (steps: readonly Step[]): boolean => {
  const u = leftU(steps);
  return u !== undefined && u.next === undefined;
};

const endsUtoNc = (steps: readonly Step[]): boolean =>
  arrow(withoutCheck(steps).slice(-2)) === "U → NC";

const containsUtoC = (steps: readonly Step[]): boolean => {
  const s = withoutCheck(steps);
  return s.some((state, i) => state === "U" && s[i + 1] === "C");
};

function findingsOf(d: Discipline, one: Traces, two: Traces): Finding[] {
  const D = DISCIPLINE[d];
  const ours = (steps: readonly Step[]) =>
    `${describe(steps)}; without CHECK: ${arrow(withoutCheck(steps))}`;
  const p2One = endsUtoNc(one.P2.steps);
  const p1One = staysU(one.P1.steps);
  const p2Two = containsUtoC(two.P2.steps);
  const p1Two = staysU(two.P1.steps);
  return [
    {
      what: `${D}, single congestion point: P2's states end U → NC`,
      paper: "P2: Undetermined → Non-congestion",
      ours: ours(one.P2.steps),
      deviation: p2One ? "same" : "differs",
      holds: p2One,
      tolerance: "last two states U, NC (CHECK dropped)",
    },
    {
      what: `${D}, single congestion point: P1 stays U once undetermined`,
      paper: "P1: Undetermined",
      ours: ours(one.P1.steps),
      deviation: p1One ? "same" : "differs",
      holds: p1One,
      tolerance: "only U after the first U (CHECK counts as leaving U)",
    },
    {
      what: `${D}, two congestion points: P2's states contain U → C`,
      paper: "P2: Undetermined → Congestion",
      ours: ours(two.P2.steps),
      deviation: p2Two ? "same" : "differs",
      holds: p2Two,
      tolerance: "U followed by C (CHECK dropped)",
    },
    {
      what: `${D}, two congestion points: P1 stays U once undetermined`,
      paper: "P1: Undetermined",
      ours: ours(two.P1.steps),
      deviation: p1Two ? "same" : "differs",
      holds: p1Two,
      tolerance: "only U after the first U (CHECK counts as leaving U)",
    },
  ];
}

/** Why a finding does not hold, from the runs' own figures. */
function explain(
  traced: Record<Discipline, { one: Traces; two: Traces }>,
  twoCeeRoundRobin: Traces | undefined,
): string {
  const out: string[] = [];
  const p1Left: string[] = [];
  for (const d of DISCIPLINES) {
    const { one } = traced[d];
    const p1 = leftU(one.P1.steps);
    const p2 = leftU(one.P2.steps);
    if (staysU(one.P1.steps) || p1?.next === undefined) continue;
    const p2At = p2?.next === undefined ? "" : `, P2 at ${fmt(p2.next.atUs, 0)} µs`;
    const rest = one.P1.steps.slice(one.P1.steps.indexOf(p1.next)).map((s) => s.state);
    p1Left.push(
      `on ${DISCIPLINE[d]} P1 left U at ${fmt(p1.next.atUs, 0)} µs${p2At}, for ${arrow(rest)}`,
    );
  }
  if (p1Left.length > 0) {
    out.push(
      `Single congestion point: ${p1Left.join("; ")}. Every packet P1 sends crosses P2, so once P3's backlog has drained and P2 is ON for good, S2's input from S1 falls below XON (below the credit limit on IB) and P1 is resumed for good as well: its next ON period passes max(T_on) and TCD leaves U, as at P2. On this chain P1 could stay paused only behind a second bottleneck at S2, for traffic P2 does not carry, i.e. a second congestion point; in the slides' single-point figure P1 presumably sits where the congestion still holds it, a layout their text does not give.`,
    );
  }
  const twoCee = traced.cee.two.P1;
  const leftTwo = leftU(twoCee.steps);
  if (!staysU(twoCee.steps) && leftTwo?.next !== undefined && twoCeeRoundRobin !== undefined) {
    const rr = twoCeeRoundRobin.P1.steps;
    out.push(
      `Two congestion points on CEE: P1 left U at ${fmt(leftTwo.next.atUs, 0)} µs and went ${describe(twoCee.steps.slice(twoCee.steps.indexOf(leftTwo.next) - 1))}: some of its ON periods outlast max(T_on) (40 µs), so TCD leaves U for CHECK, and returns to U at the next pause. Our CEE switches serve P2 in arrival order, as the reference's output-queued switch does; with round-robin service instead (one packet per input in turn), the same run gives P1 ${describe(rr)}${staysU(rr) ? ", staying U" : ""}. Our reading, not measured: in arrival order S2's input from S1 is drained in bursts, while its packets are the oldest at P2, which lets S1 send for longer between pauses.`,
    );
  }
  for (const d of DISCIPLINES) {
    const { two } = traced[d];
    if (containsUtoC(two.P2.steps)) continue;
    const from = leftU(two.P2.steps)?.next?.atUs ?? Number.POSITIVE_INFINITY;
    const after = two.P2.queue.filter((q) => q.atUs >= from).map((q) => q.bytes);
    const range =
      after.length === 0
        ? ""
        : ` while its queue stayed between ${fmt(Math.min(...after), 0)} and ${fmt(Math.max(...after), 0)} B to the end of the run`;
    out.push(
      `Two congestion points on ${DISCIPLINE[d]}: P2 went ${arrow(two.P2.steps.map((s) => s.state))}${range}. P2's queue is S2's three inputs, which filled while P2 was still ON-OFF, so once P2 is ON for good its queue is already as long as flow control lets it be: at TCD's first check it was below its value at the resume (by about one packet: the rules see the queue the leaving packet leaves behind, while the queue at the resume still held the packet that started then), which gives CHECK, and in CHECK it neither grew by 900 B over a period (C) nor fell to 2,060 B (NC). With credits the inputs stay exactly full; with PFC they move between XON and XOFF, which is enough for CHECK → C.`,
    );
  }
  return out.join(" ");
}

export const tcdCongestionPoints: Experiment = {
  id: "tcd-congestion-points",
  title: "TCD typical scenarios: states of P2 and P1 with one and with two congestion points",
  source: `${SEED}, lines 325–343 (single congestion point) and 347–370 (multiple congestion points), CEE and InfiniBand`,
  scenarios: CASES.flatMap((c) => DISCIPLINES.map((d) => file(c, d))),
  notes:
    "Fabric (INFERRED, the slides' figure is not in the text): a chain of three switches of four 10 Gb/s ports, S1 → S2 → S3, P1 = S1's port to S2, P2 = S2's port to S3, P3 = S3's port to receiver R3; links of 1 µs, 1000-byte payloads, the ns-3 runs' buffers (432,600 B per input port and VL, XOFF 329,600 B), max(T_on) 40 µs (the reference code's default), TCD detection only (ceRule red on PFC, infiniband on credits; fixed-rate hosts without CC). CEE switches serve each output in arrival order, as the reference's output-queued switch (`arbitration: oldest-first`, `readPorts: 32`); InfiniBand switches round-robin. Both cases: F1 A1→R3 at 8 Gb/s all the time, F2 B3→R3 at line rate from 100 µs to 2.5 ms, so P3 is congested, and P2, then P1, go ON-OFF as the inputs behind them fill (the table gives when). Single point: nothing else, so after 2.5 ms the backlog drains at the 2 Gb/s F1 leaves free. Two points: from 2.5 ms A2 and A3 on S2 send to R4 on S3 at line rate, so P2 is offered 28 Gb/s and becomes the congestion point once P3's backlog stops pausing it (P3 must stop congesting then: a congested P3 keeps S3's input from S2 full and P2 ON-OFF). On InfiniBand P3 alternates between C and NC from packet to packet: the IB CC rule marks with probability 1/2 (markingRate 1) and TCD's Step 4 re-decides C or NC at each packet. States are TCD's `state` of each port's VL 0 in `cc-queues.csv`, sampled every 5 µs (a state changes only when the queue sends a packet), repeats collapsed, with the time of the first sample that showed each; 15 ms runs. CHECK (the reference's fourth state: left U after an ON period longer than max(T_on), watching the queue's trend) is reported, and dropped to compare with the slides' three states (\"U → CHECK → NC\" counts as U → NC); for P1 staying U, CHECK counts as having left U.",
  async run({ scale }) {
    const result = async (c: Case, d: Discipline) => (await runScenario(file(c, d), scale)).result;
    const traced: Record<Discipline, { one: Traces; two: Traces }> = {
      cee: { one: traces(await result("one", "cee")), two: traces(await result("two", "cee")) },
      ib: { one: traces(await result("one", "ib")), two: traces(await result("two", "ib")) },
    };
    const findings = DISCIPLINES.flatMap((d) => findingsOf(d, traced[d].one, traced[d].two));
    // The control run for the explanation: the CEE two-point case with round-robin service.
    const twoCeeRoundRobin = staysU(traced.cee.two.P1.steps)
      ? undefined
      : traces(
          (
            await runScenario(file("two", "cee"), scale, [
              ["switch.arbitration", "round-robin"],
              ["switch.readPorts", 1],
            ])
          ).result,
        );
    const rows = CASES.flatMap((c) =>
      DISCIPLINES.flatMap((d) =>
        (["P1", "P2", "P3"] as const).map(
          (p) => `| ${CASE[c]} | ${DISCIPLINE[d]} | ${p} | ${describe(traced[d][c][p].steps)} |`,
        ),
      ),
    );
    const table = [
      "| case | discipline | port | TCD states (time of the first sample in each) |",
      "|---|---|---|---|",
      ...rows,
    ].join("\n");
    const failed = findings.filter((f) => !f.holds);
    return {
      findings,
      tables: [table],
      ...(failed.length === 0
        ? {}
        : {
            explanation: explain(traced, twoCeeRoundRobin),
          }),
    };
  },
};
