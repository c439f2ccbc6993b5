import type { Summary } from "@cclab/sim";
import type { TableData } from "./types.js";

/**
 * `summary.json` as the viewer reads it (`Summary`, schema in @cclab/sim): any object field may
 * be missing, since a folder may come from an older cclab; array elements keep their shape.
 */
type Tolerant<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { readonly [K in keyof T]?: Tolerant<T[K]> }
    : T;
export type SummaryJson = Tolerant<Summary>;

// A figure summary.json leaves null (Jain's index of no flow) or an older file lacks reads "-".
const r = (v: number | null | undefined, digits: number) =>
  v === undefined || v === null ? "-" : Number(v.toFixed(digits));
const fmt = (v: number | null | undefined, digits: number) =>
  v === undefined || v === null ? "-" : v.toFixed(digits);

/** The first lines of `summary.txt` as label → value pairs. */
export function summaryFacts(s: SummaryJson): [string, string][] {
  const t = s.totals ?? {};
  const facts: [string, string][] = [
    ["scenario", `${s.scenario ?? "?"}  seed ${s.seed ?? "?"}  status ${s.status ?? "?"}`],
    [
      "simulated",
      `${fmt(s.simulatedUs, 3)} µs (window ${fmt(s.windowUs?.from, 3)}–${fmt(s.windowUs?.to, 3)} µs), ${s.eventsProcessed ?? "?"} events`,
    ],
    [
      "messages",
      `${t.completedMessages ?? "?"}/${t.messages ?? "?"} complete, ${t.deliveredBytes ?? "?"} of ${t.offeredBytes ?? "?"} B delivered, ${fmt(t.windowGbps, 3)} Gb/s in the window`,
    ],
    [
      "drops, pauses, marks",
      `drops ${t.dataDrops ?? 0}  pause frames ${t.pauseFrames ?? 0}  resume frames ${t.resumeFrames ?? 0}  marks FECN ${t.marks?.fecn ?? 0} BECN ${t.marks?.becn ?? 0} CE ${t.marks?.ecnCe ?? 0}`,
    ],
  ];
  const c = s.fct?.completionUs;
  const d = s.fct?.slowdown;
  if (c !== undefined && d !== undefined) {
    facts.push([
      "completion µs",
      `p50 ${fmt(c.p50, 2)}  p99 ${fmt(c.p99, 2)}  max ${fmt(c.max, 2)}   slowdown p50 ${fmt(d.p50, 2)}  p99 ${fmt(d.p99, 2)}  max ${fmt(d.max, 2)}`,
    ]);
  }
  return facts;
}

/** The tables of `summary.txt` (groups, flows, busiest inputs) and the hosts', as data. */
export function summaryTables(s: SummaryJson): TableData[] {
  const tables: TableData[] = [];
  if ((s.groups ?? []).length > 0) {
    tables.push({
      title: "Traffic groups",
      header: ["group", "flows", "mean window Gb/s", "min", "max", "Jain"],
      rows: s.groups!.map((g) => [
        g.name,
        g.flows,
        r(g.meanGbps, 3),
        r(g.minGbps, 3),
        r(g.maxGbps, 3),
        r(g.jainIndex, 4),
      ]),
    });
  }
  if ((s.flows ?? []).length > 0) {
    tables.push({
      title: "Flows",
      header: [
        "flow",
        "id",
        "group",
        "window Gb/s",
        "msgs done",
        "msgs",
        "MCT p50 µs",
        "MCT p99 µs",
      ],
      rows: s.flows!.map((f) => [
        `${f.srcName}→${f.dstName}`,
        f.id,
        f.group ?? "",
        r(f.windowGbps, 3),
        f.completedMessages,
        f.messages,
        r(f.mctUs?.p50, 2),
        r(f.mctUs?.p99, 2),
      ]),
    });
  }
  if ((s.congestedPorts ?? []).length > 0) {
    tables.push({
      title: "Busiest inputs",
      header: ["busiest input", "VL", "mean B", "max B", "out blocked µs"],
      rows: s.congestedPorts!.map((p) => [
        `${p.portName} (from ${p.peer})`,
        p.vl,
        Math.round(p.meanInputBytes),
        p.maxInputBytes,
        r(p.blockedUs, 1),
      ]),
    });
  }
  if ((s.hosts ?? []).length > 0) {
    tables.push({
      title: "Hosts",
      header: ["host", "send Gb/s", "receive Gb/s"],
      rows: s.hosts!.map((h) => [h.name, r(h.sendGbps, 3), r(h.receiveGbps, 3)]),
    });
  }
  return tables;
}
