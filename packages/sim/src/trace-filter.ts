import { type TimePs, usToPs } from "@cclab/core-des";
import { type FabricDescription, NAMED_PACKET_KINDS } from "@cclab/fabric";
import { type PortEntry, PortMap } from "./port-map.js";

/**
 * What a packet trace records (`simulate`'s `trace` option, `cclab run --trace`): one row per
 * packet event that passes every filter given (docs/model.md, "Packet trace").
 */
export interface TraceOptions {
  /**
   * Flows: ids as in `flow-throughput.csv` and `messages.csv`, or host-name pairs `"H1->H2"`
   * (that flow at every SL). Control packets travel on the flow they answer (a CNP on its data
   * flow's id), so they match too.
   */
  readonly flows?: readonly (number | string)[];
  /** Ports: `S3.p5` (switch S3, port 5), `H17.p0` (a host's port), or a device name (`S3`). */
  readonly ports?: readonly string[];
  /** Events at or after this time, µs. Default 0. */
  readonly fromUs?: number;
  /** Events before this time, µs. Default: the end of the run. */
  readonly toUs?: number;
  /** Packet kinds: `data`, `ack`, `nack`, `cnp`, … or a plugin's own `x-` kind. */
  readonly kinds?: readonly string[];
  /** The most rows written; later events that match are counted, not written. */
  readonly maxRows?: number;
}

export const DEFAULT_TRACE_MAX_ROWS = 1_000_000;

/** A problem with one trace option, in the words a user needs. */
export interface TraceIssue {
  readonly option: keyof TraceOptions;
  readonly message: string;
}

/** Trace options that name what the fabric lacks or are out of range, all of them at once. */
export class TraceOptionsError extends Error {
  override name = "TraceOptionsError";

  constructor(readonly issues: readonly TraceIssue[]) {
    super(issues.map((i) => `trace.${i.option}: ${i.message}`).join("\n"));
  }
}

/** Port filter keys: device code × PORT_KEY + port (switches 0.., hosts after them). */
export const PORT_KEY = 65_536;

/** Checked trace options, as the recorder tests them (null: no filter on that). */
export interface TraceFilter {
  readonly flowIds: ReadonlySet<number> | null;
  /** `src × hostCount + dst` of the host pairs. */
  readonly flowPairs: ReadonlySet<number> | null;
  /** Device code × {@link PORT_KEY} + port: switch `s` is code `s`, host `h` is switches + `h`. */
  readonly ports: ReadonlySet<number> | null;
  readonly fromPs: TimePs;
  readonly toPs: TimePs;
  readonly kinds: ReadonlySet<string> | null;
  readonly maxRows: number;
}

/**
 * Checks trace options against a fabric and returns the filter they make, with every problem
 * found. Given the network's VL count (the scenario's VLs and the CC lanes), flow ids are
 * checked to name a flow too.
 */
export function checkTraceOptions(
  options: TraceOptions,
  fabric: FabricDescription,
  vlCount?: number,
): { filter: TraceFilter; issues: TraceIssue[] } {
  const issues: TraceIssue[] = [];
  const issue = (option: keyof TraceOptions, message: string) => issues.push({ option, message });
  const hostCount = fabric.hosts.length;
  const hostIndex = new Map(fabric.hosts.map((h, i) => [h.name, i]));
  const switchIndex = new Map(fabric.switches.map((s, i) => [s.name, i]));
  const devices = `switches: ${names(fabric.switches.map((s) => s.name))}; hosts: ${names(fabric.hosts.map((h) => h.name))}`;

  let flowIds: Set<number> | null = null;
  let flowPairs: Set<number> | null = null;
  if (options.flows !== undefined) {
    flowIds = new Set();
    flowPairs = new Set();
    for (const flow of options.flows) {
      const text = String(flow).trim();
      if (typeof flow === "number" || /^\d+$/.test(text)) {
        const id = Number(text);
        const problem = flowIdProblem(id, hostCount, vlCount);
        if (problem === undefined) flowIds.add(id);
        else issue("flows", problem);
        continue;
      }
      const pair = /^(.+?)\s*->\s*(.+)$/.exec(text);
      if (pair === null) {
        issue(
          "flows",
          text === ""
            ? "an empty entry (check the commas)"
            : `"${text}" is neither a flow id (a whole number, as in flow-throughput.csv) nor a host pair such as ${fabric.hosts[0]?.name ?? "H0"}->${fabric.hosts[1]?.name ?? "H1"}`,
        );
        continue;
      }
      const [src, dst] = [hostIndex.get(pair[1]!), hostIndex.get(pair[2]!)];
      for (const [name, index] of [
        [pair[1]!, src],
        [pair[2]!, dst],
      ] as const) {
        if (index === undefined) {
          issue(
            "flows",
            `"${text}": no host named "${name}" (hosts: ${names(fabric.hosts.map((h) => h.name))})`,
          );
        }
      }
      if (src === undefined || dst === undefined) continue;
      if (src === dst) issue("flows", `"${text}": a flow joins two different hosts`);
      else flowPairs.add(src * hostCount + dst);
    }
  }

  let ports: Set<number> | null = null;
  if (options.ports !== undefined) {
    ports = new Set();
    const map = new PortMap(fabric);
    const switchCount = fabric.switches.length;
    const key = (e: PortEntry) =>
      (e.kind === "switch" ? e.index : switchCount + e.index) * PORT_KEY + e.port;
    for (const raw of options.ports) {
      const text = raw.trim();
      if (text === "") {
        issue("ports", "an empty entry (check the commas)");
        continue;
      }
      // A port by its name (docs/model.md, "Port names"), or a device name alone: all its ports.
      const port = map.find(text);
      const matched = port === undefined ? map.entries.filter((e) => e.device === text) : [port];
      if (matched.length > 0) {
        for (const e of matched) ports.add(key(e));
        continue;
      }
      const named = /^(.+)\.p(\d+)$/.exec(text);
      const device = named?.[1];
      const sw = device === undefined ? undefined : switchIndex.get(device);
      if (named === null) {
        issue(
          "ports",
          `"${text}" is not a port; give <device>.p<port> (${fabric.switches[0]?.name ?? "S0"}.p0, ${fabric.hosts[0]?.name ?? "H0"}.p0) or a device name (${devices})`,
        );
      } else if (sw !== undefined) {
        issue("ports", `"${text}": ${device} has ports p0..p${fabric.switches[sw]!.portCount - 1}`);
      } else if (hostIndex.has(device!)) {
        issue("ports", `"${text}": a host has one port, ${device}.p0`);
      } else {
        issue("ports", `"${text}": no device named "${device}" (${devices})`);
      }
    }
  }

  const { fromUs = 0, toUs } = options;
  if (!(Number.isFinite(fromUs) && fromUs >= 0)) {
    issue("fromUs", `must be a time ≥ 0 µs, got ${fromUs}`);
  }
  if (toUs !== undefined && !(Number.isFinite(toUs) && toUs > 0)) {
    issue("toUs", `must be a time > 0 µs, got ${toUs}`);
  } else if (toUs !== undefined && Number.isFinite(fromUs) && toUs <= fromUs) {
    issue("toUs", `must be after the start of the window (${fromUs} µs), got ${toUs}`);
  }

  let kinds: Set<string> | null = null;
  if (options.kinds !== undefined) {
    kinds = new Set();
    const known: readonly string[] = NAMED_PACKET_KINDS;
    for (const raw of options.kinds) {
      const kind = raw.trim();
      if (known.includes(kind) || /^x-.+/.test(kind)) kinds.add(kind);
      else {
        issue(
          "kinds",
          kind === ""
            ? "an empty entry (check the commas)"
            : `"${kind}" is not a packet kind; kinds: ${known.join(", ")}, or a plugin's own x-<name>`,
        );
      }
    }
  }

  const maxRows = options.maxRows ?? DEFAULT_TRACE_MAX_ROWS;
  if (!Number.isSafeInteger(maxRows) || maxRows < 1) {
    issue("maxRows", `must be a whole number of rows ≥ 1, got ${maxRows}`);
  }

  const finite = (us: number | undefined, fallback: TimePs) =>
    us !== undefined && Number.isFinite(us) && us >= 0 ? usToPs(us) : fallback;
  return {
    filter: {
      flowIds,
      flowPairs,
      ports,
      fromPs: finite(fromUs, 0),
      toPs: finite(toUs, Number.POSITIVE_INFINITY),
      kinds,
      maxRows,
    },
    issues,
  };
}

// Flow ids are (src × hosts + dst) × VLs + SL (packages/fabric-hca/src/flow-id.ts).
function flowIdProblem(id: number, hostCount: number, vlCount?: number): string | undefined {
  if (!Number.isSafeInteger(id) || id < 0) {
    return `${id} is not a flow id (a whole number ≥ 0, as in flow-throughput.csv)`;
  }
  if (vlCount === undefined) return undefined;
  const pair = Math.floor(id / vlCount);
  const [src, dst] = [Math.floor(pair / hostCount), pair % hostCount];
  if (src < hostCount && src !== dst) return undefined;
  return `${id} is not a flow of this fabric (ids are (src × ${hostCount} + dst) × ${vlCount} + SL with src ≠ dst, as in flow-throughput.csv and messages.csv)`;
}

// A list of names for a message: all of them, or the first and last few.
function names(list: readonly string[]): string {
  if (list.length === 0) return "none";
  if (list.length <= 8) return list.join(", ");
  return `${list.slice(0, 4).join(", ")}, …, ${list.slice(-2).join(", ")} (${list.length})`;
}
