import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { experimentIds } from "@cclab/reproduce";
import {
  DEFAULT_TRACE_MAX_ROWS,
  formatIssues,
  PROFILE_SAMPLE_EVERY,
  RunFailure,
  RunInterrupted,
  ScenarioError,
} from "@cclab/sim";
import { compare } from "./compare.js";
import { EXIT, type Io, UsageError } from "./errors.js";
import { LIST_SECTIONS, type ListSection, listText, loadListedPlugins } from "./list.js";
import { plot } from "./plot.js";
import { reproduce } from "./reproduce.js";
import { DEFAULT_PROGRESS_SECONDS, runOrValidate } from "./run.js";
import { sweep, worker } from "./sweep.js";
import { topology } from "./topology.js";
import { view } from "./view.js";

export { EXIT, type Io } from "./errors.js";

const HELP = `cclab: simulate lossless fabrics (InfiniBand credits, Ethernet PFC) and their congestion control

Usage:
  cclab run <scenario.yaml> [--out DIR] [--seed N] [--set path=value ...] [--quiet] [--no-plots]
            [--profile] [--progress-seconds S] [--force] [--trace [--trace-flows …] …]
  cclab validate <scenario.yaml> [--seed N] [--set path=value ...]
  cclab plot <result-dir> [--series NAME ...] [--port NAME ...] [--flow FLOW ...]
  cclab topology <scenario.yaml> [--csv] [--seed N] [--set path=value ...]
  cclab compare <result-dir> <result-dir> ... [--out DIR]
  cclab sweep <sweep.yaml> [--out DIR] [--threads N | --redis URL [--queue NAME]] [--quiet]
  cclab worker --redis URL [--queue NAME] [--threads N]
  cclab reproduce <experiment ...> | --all [--quick] [--out DIR]
  cclab view <result-or-sweep-dir> ... [--port N | --export DIR]
  cclab list [scenario|switch|host|cc|run|metrics|topologies|traffic|plugins ...]
             [--plugin MODULE ...] [--scenario FILE]
  cclab --help | <command> --help
  cclab --version

Exit codes: 0 ok, 1 the run failed (an invariant broke; the message says which) or a
sweep point failed,
2 bad input (the scenario's errors are listed, one per line), 130 interrupted.
`;

const COMMAND_HELP: Record<string, string> = {
  run: `cclab run <scenario> [options]

Validates the scenario, runs it and writes the result directory: scenario.resolved.json,
summary.json (schema: @cclab/sim schema/summary.schema.json), summary.txt, run.json
(wall-clock facts), CSV series and plots/ (SVG, PNG and Vega-Lite JSON of each series; see
cclab plot --help). summary.json is written last; an interrupted or failed run leaves none.

Options:
  --out DIR          result directory (default: results/<scenario name>)
  --seed N           override the scenario's seed
  --set path=value   override a field, e.g. --set run.durationUs=500 --set traffic[0].loadFraction=0.8
                     (repeatable; the value is read as YAML)
  --quiet            no progress. On a terminal one line is redrawn in place; when stderr is
                     not a terminal (a log file, a batch job) a plain line is written every
                     few seconds: simulated time, share done, events/s, elapsed time and ETA
  --progress-seconds S
                     seconds between those plain lines (default ${DEFAULT_PROGRESS_SECONDS})
  --no-plots         skip the figures (cclab plot draws them later from the saved CSVs)
  --force            run even when the estimated memory (series bins, buffers' packets,
                     messages.csv, flow table) exceeds this machine's; without it such a run
                     is refused with the estimate (exit 2)
  --profile          time the event handlers by kind (one event in ${PROFILE_SAMPLE_EVERY} of each kind) and print
                     each kind's events, share of the handlers' time and µs per event; also
                     in run.json as kindProfile. The results are the same as without it
  --trace            write trace.csv: one row per packet event (inject at a host, enqueue at a
                     switch input, transmit on a switch output, drop, deliver), with time_ps,
                     device, port, vl, event and the packet's fields; the other results are the
                     same as without it. Filters (all given must match; lists are
                     comma-separated, options repeatable):
  --trace-flows F    flow ids (3,5, as in flow-throughput.csv) or host pairs (H1->H2)
  --trace-ports P    ports (S3.p5, H17.p0; cclab topology lists them) or devices (S3)
  --trace-from-us T, --trace-to-us T
                     events in from ≤ time < to, µs
  --trace-kinds K    packet kinds: data, ack, nack, cnp, … or a plugin's x-<name>
  --trace-max-rows N at most N rows (default ${DEFAULT_TRACE_MAX_ROWS}); past it the trace stops, says so in a
                     last "# truncated" line, in run.json (trace) and on stderr
`,
  validate: `cclab validate <scenario> [--seed N] [--set path=value ...]

Checks the scenario (schema, topology, traffic, plugins, buffers, PFC headroom, routing)
without running it. Prints every problem with the path of its field and exits 2, or prints
"ok" and exits 0.
`,
  plot: `cclab plot <result-dir> [--series NAME ...] [--port NAME ...] [--flow FLOW ...]

Redraws a finished run's figures from its saved files into <result-dir>/plots/, as SVG, PNG
(twice the size, DejaVu Sans bundled) and the Vega-Lite spec with its data (<name>.vl.json).
Figures, each drawn when the run recorded its data (metrics.series):
  flow-throughput   payload Gb/s per flow over time (a mean line and min–max band per
                    traffic group when there are more than 12 flows)
  host-throughput   received Gb/s per host and traffic group over time (same grouping)
  port-occupancy    mean input-buffer KiB of the 12 most occupied switch ports and VLs
  egress-occupancy  mean egress-queue KiB of the 12 most occupied switch outputs and VLs
  flow-control      % of each bin the 12 most blocked ports were paused or out of credits
  cc                one figure per CC variable a plugin records per flow (cc-ccti, cc-rateGbps…)
  cc-queues         one figure per CC variable a switch part records per egress queue
                    (TCD: cc-queues-state, 0 NC 1 CHECK 2 U 3 C), the 12 largest queues
  fct               distribution (CDF) of message completion times per traffic group

Ports are named by device and number and labelled with what their cable leads to
(S3.p5 → H17; cclab topology prints the map, ports.csv holds it). Every time axis runs from
0 to the run's end; a port or flow without a row in a bin is drawn at 0 there.

Options:
  --series NAME      only this figure (repeatable); without it every figure is redrawn and
                     stale ones are removed
  --port NAME        draw these ports in the port figures instead of the 12 busiest: a port
                     (S3.p5, H17.p0) or a device (S3: all its ports); repeatable
  --flow FLOW        draw only these flows in the flow figures: an id (12) or a host pair
                     (H1->H2: every flow between them); repeatable
`,
  topology: `cclab topology <scenario> [--csv] [--seed N] [--set path=value ...]

Prints the scenario's fabric as a port map: every port by its device and number (S3.p5,
H17.p0), what its cable leads to (H17, S2.p1, or - when uncabled), and the cable's rate and
latency. Results use these names (ports.csv, the port columns of every CSV, legends).

Options:
  --csv              the map as CSV (name,device,port,peer,rate_gbps,latency_ns)
  --seed N, --set path=value   as for cclab run (a topology may depend on them)
`,
  compare: `cclab compare <result-dir> <result-dir> ... [--out DIR]

Compares finished runs, e.g. one scenario without CC and with each scheme. Prints a table with
a column per run: total Gb/s in the measurement window; per traffic group the mean Gb/s per
flow, Jain's fairness index and Paper III's treatment variation Var (variance over bins of the
spread between the group's fastest and slowest flow while all are active; from
flow-throughput.csv); packet latency p50/p99 (ns); message completion time p50/p99 (µs) and
slowdown p99; FECN, BECN and CE marks; pause frames; drops. Writes compare.csv, compare.txt
and plots/ overlaying the runs: each group's mean flow throughput over time and the message
completion time CDFs. Runs are labelled by directory name.

Options:
  --out DIR          output directory (default: results/compare)
`,
  sweep: `cclab sweep <sweep.yaml> [options]

Runs every point of a sweep: a base scenario with fields set on every point, axes of values
(every combination is a point) and seeds (repetitions). Example:

  name: paper3-timer-marking
  base: parking-lot-cc.yaml              # relative to the sweep file
  set: { run.durationUs: 100000 }        # on every point (paths as in --set)
  axes:
    cc.hosts[0].params.cctiTimerUs: { from: 50, to: 800, factor: 2 }   # geometric
    cc.switch.params.markingRate: [0, 1, 3, 10, 15]                     # a list
    # or { from: 0, to: 20, step: 5 }: arithmetic, both ends included
  seeds: [1, 2]                          # or { count: 3, from: 1 }; default: the base's seed
  columns: [flows.0.windowGbps]          # extra summary.json paths for the table
  plot: { metrics: [groups.victim.meanGbps] }   # default: every group's meanGbps, total Gb/s
  keepSeries: false                      # true keeps each point's CSV series

Every point is checked before any runs (a sweep none of whose points is valid is rejected).
Writes to DIR: sweep.resolved.json, points/<id>/ (point.json, scenario.resolved.json,
summary.json, …; error.txt for a failed point), sweep.csv (one row per point in sweep order:
axes, seed, status, summary figures, error) and plots/ (a line over one axis, heat maps over
two, one heat map per value of a third; mean over seeds). A point that fails is reported and
the others go on (exit 1 at the end). Rerunning the same command resumes: points whose
scenario is unchanged and finished are not run again.

Options:
  --out DIR          output directory (default: results/<sweep name>)
  --threads N        worker threads on this machine (default: every core)
  --redis URL        queue the points in Redis (redis://host:6379) for cclab worker processes
                     on any machines, and collect their results here; trace files named by
                     the scenario must be readable at the same path on the workers
  --queue NAME       the Redis queue (default: cclab-sweeps)
  --quiet            no progress (a line per point when stderr is not a terminal)
`,
  worker: `cclab worker --redis URL [options]

Runs sweep points queued by cclab sweep --redis until interrupted (Ctrl-C, SIGTERM), each on
its own thread, and stores the results in Redis for the sweep to collect. A worker that
dies mid-point loses its lock; another worker takes the point again after the lock lapses
(once; a point that kills two workers fails).

Options:
  --queue NAME               the Redis queue (default: cclab-sweeps)
  --threads N                points run at once (default: every core)
  --lock-duration-ms N       how long a point's lock lasts without renewal (default 30000)
  --stalled-interval-ms N    how often to look for points of dead workers (default 30000)
`,
  reproduce: `cclab reproduce <experiment ...> | --all [--quick] [--out DIR]

Runs experiments of the seed papers (Gran thesis Papers II–IV) from the shipped scenarios of a
cclab checkout and writes DIR/reproductions.md: every finding with the paper's figure, ours,
the deviation, whether it holds within the stated tolerance, and our explanation where it
does not; the runs of the scenarios as shipped are saved under DIR/runs/ with their plots,
which the report shows. Outcomes are kept in DIR/outcomes/, so rerunning one experiment keeps
the others in the report. The Paper IV experiments run the 648-node fabric for minutes each.

Experiments: ${experimentIds().join(", ")}

Options:
  --all              every experiment
  --quick            parameter sweeps at their corners
  --out DIR          output directory (default: results/reproduce)
`,
  view: `cclab view <dir> ... [--port N | --export DIR]

Opens finished runs (result directories of cclab run, sweep points) and sweeps (directories
of cclab sweep) in a web viewer: serves it on 127.0.0.1 and prints its address
("cclab view: http://127.0.0.1:PORT/"); open that in a browser, Ctrl-C stops. Pages: each
run's summary (summary.txt's tables, sortable); its time series with zoom, pan and hover
(throughput per flow, group and host; input, output and egress queues per port and VL;
paused or credit-starved time; CC state per flow and per egress queue), drawn from each
bucket's extremes and at full resolution once zoomed in; its topology from the port map,
links coloured by utilisation or blocking over a chosen window; several runs overlaid;
a sweep's heat maps or lines, each point opening its run. Only files inside the named
directories are read.

Options:
  --port N           the port (default 0: any free port)
  --export DIR       write the viewer with the data into DIR instead of serving it:
                     DIR/index.html opens from the file system without a server (for a
                     paper's artifact); exits 0
`,
  list: `cclab list [SECTION ...] [--plugin MODULE ...] [--scenario FILE]

Lists every key a scenario file may hold, by section, with its type, default, unit and
meaning; nested keys as dotted rows (switch.pfc.xoffBytes, flows[].src), and the values each
preset of a CC plugin gives. Sections (default: all): ${LIST_SECTIONS.join(", ")}.

Options:
  --plugin MODULE    also list the CC plugins this module exports (repeatable): an npm
                     package installed here or above (my-cc, @scope/my-cc) or a file path
                     (./my-cc.js), resolved from the working directory as a scenario's
                     plugins are from its folder. Importing a module runs its code
  --scenario FILE    also list the CC plugins of this scenario's plugins list, resolved from
                     the scenario's folder
With either and no section named, only the plugins those modules export are listed; name
sections (cclab list plugins --plugin MODULE) to list them with the others.
`,
};

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

/** Runs the `cclab` command line; returns the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    io.stdout.write(HELP);
    return command === undefined ? EXIT.badInput : EXIT.ok;
  }
  if (command === "--version" || command === "-v") {
    io.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }
  if (!Object.hasOwn(COMMAND_HELP, command)) {
    io.stderr.write(
      `cclab: unknown command "${command}"; commands: ${Object.keys(COMMAND_HELP).join(", ")} (see cclab --help)\n`,
    );
    return EXIT.badInput;
  }
  let parsed: ReturnType<
    typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args: [...rest], options: OPTIONS, allowPositionals: true, strict: true });
    const allowed = COMMAND_OPTIONS[command as Command];
    const stray = Object.keys(parsed.values).find((k) => k !== "help" && !allowed.includes(k));
    if (stray !== undefined) {
      throw new Error(`option --${stray} does not apply to ${command}`);
    }
  } catch (error) {
    io.stderr.write(`cclab ${command}: ${(error as Error).message}\n`);
    return EXIT.badInput;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(COMMAND_HELP[command]!);
    return EXIT.ok;
  }
  try {
    if (command === "list") return await list(positionals, values, io);
    if (command === "plot") return await plot(positionals, values, io);
    if (command === "topology") return await topology(positionals, values, io);
    if (command === "compare") return await compare(positionals, values, io);
    if (command === "sweep") return await sweep(positionals, values, io);
    if (command === "worker") return await worker(positionals, values, io);
    if (command === "reproduce") return await reproduce(positionals, values, io);
    if (command === "view") return await view(positionals, values, io);
    return await runOrValidate(command as "run" | "validate", positionals, values, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${error.message}\n`);
      return EXIT.badInput;
    }
    if (error instanceof ScenarioError) {
      io.stderr.write(
        `cclab ${command}: the ${command === "sweep" ? "sweep" : "scenario"} is not valid:\n${indent(formatIssues(error.issues))}\n`,
      );
      return EXIT.badInput;
    }
    if (error instanceof RunFailure) {
      io.stderr.write(`cclab ${command}: run failed: ${error.message}\n`);
      return EXIT.runFailed;
    }
    if (error instanceof RunInterrupted) {
      io.stderr.write(`cclab ${command}: ${error.message}; no summary written\n`);
      return EXIT.interrupted;
    }
    // Anything else is a bug in cclab, not in the scenario: show the stack for the report.
    io.stderr.write(
      `cclab ${command}: internal error (please report): ${(error as Error).stack ?? String(error)}\n`,
    );
    return EXIT.runFailed;
  }
}

const OPTIONS = {
  out: { type: "string" },
  seed: { type: "string" },
  set: { type: "string", multiple: true },
  quiet: { type: "boolean" },
  "no-plots": { type: "boolean" },
  profile: { type: "boolean" },
  "progress-seconds": { type: "string" },
  force: { type: "boolean" },
  trace: { type: "boolean" },
  "trace-flows": { type: "string", multiple: true },
  "trace-ports": { type: "string", multiple: true },
  "trace-from-us": { type: "string" },
  "trace-to-us": { type: "string" },
  "trace-kinds": { type: "string", multiple: true },
  "trace-max-rows": { type: "string" },
  series: { type: "string", multiple: true },
  port: { type: "string", multiple: true },
  flow: { type: "string", multiple: true },
  csv: { type: "boolean" },
  threads: { type: "string" },
  redis: { type: "string" },
  queue: { type: "string" },
  "lock-duration-ms": { type: "string" },
  "stalled-interval-ms": { type: "string" },
  all: { type: "boolean" },
  quick: { type: "boolean" },
  plugin: { type: "string", multiple: true },
  scenario: { type: "string" },
  export: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type Command = keyof typeof COMMAND_HELP;

/** The options each command takes (parseArgs parses them all; the others are rejected). */
const COMMAND_OPTIONS: Record<Command, readonly string[]> = {
  run: [
    "out",
    "seed",
    "set",
    "quiet",
    "no-plots",
    "profile",
    "progress-seconds",
    "force",
    "trace",
    "trace-flows",
    "trace-ports",
    "trace-from-us",
    "trace-to-us",
    "trace-kinds",
    "trace-max-rows",
  ],
  validate: ["seed", "set"],
  plot: ["series", "port", "flow"],
  topology: ["csv", "seed", "set"],
  compare: ["out"],
  sweep: ["out", "threads", "redis", "queue", "quiet"],
  worker: ["redis", "queue", "threads", "lock-duration-ms", "stalled-interval-ms"],
  reproduce: ["all", "quick", "out"],
  view: ["port", "export"],
  list: ["plugin", "scenario"],
};

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
}

async function list(
  positionals: readonly string[],
  values: { plugin?: string[]; scenario?: string },
  io: Io,
): Promise<number> {
  const unknown = positionals.filter((p) => !(LIST_SECTIONS as readonly string[]).includes(p));
  if (unknown.length > 0) {
    io.stderr.write(
      `cclab list: unknown section "${unknown[0]}"; sections: ${LIST_SECTIONS.join(", ")}\n`,
    );
    return EXIT.badInput;
  }
  const loaded = await loadListedPlugins(values);
  if (positionals.length > 0) {
    io.stdout.write(listText(positionals as ListSection[]));
  } else if ((values.plugin ?? []).length > 0 || values.scenario !== undefined) {
    // Plugins asked for by module or scenario, and no section named: those plugins alone.
    io.stdout.write(listText(["plugins"], { plugins: loaded }));
  } else {
    io.stdout.write(listText(LIST_SECTIONS));
  }
  return EXIT.ok;
}
