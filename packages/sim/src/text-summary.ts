import type { RunInfo } from "./simulate.js";
import type { Summary } from "./summary.js";

const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);
const fmt = (x: number, digits = 3) => x.toFixed(digits);

/**
 * Rows of a plain text table, columns padded to their widest cell: numbers right-aligned, text
 * left-aligned.
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const numeric = header.map((_, c) => rows.every((r) => /^(-|[-+]?[\d.]+)$/.test(r[c]!.trim())));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => (numeric[c] ? lpad(cell, widths[c]!) : pad(cell, widths[c]!)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)];
}

/** The flow table the CLI prints and `summary.txt` holds (at most `limit` flows). */
export function flowTable(summary: Summary, limit = 20): string[] {
  if (summary.flows.length === 0 && summary.groups.length > 0) {
    return ["(no per-flow rows: the scenario sets metrics.flowTable to false)"];
  }
  const rows = summary.flows
    .slice(0, limit)
    .map((f) => [
      `${f.srcName}→${f.dstName}`,
      f.group,
      fmt(f.windowGbps),
      `${f.completedMessages}/${f.messages}`,
      f.mctUs === null ? "-" : fmt(f.mctUs.p50, 2),
      f.mctUs === null ? "-" : fmt(f.mctUs.p99, 2),
    ]);
  const out = table(
    ["flow", "group", "window Gb/s", "msgs done", "MCT p50 µs", "MCT p99 µs"],
    rows,
  );
  if (summary.flows.length > limit)
    out.push(`… ${summary.flows.length - limit} more flows in summary.json`);
  return out;
}

/** The one-page text summary of a run (`summary.txt`). */
export function textSummary(summary: Summary, run?: RunInfo): string {
  const t = summary.totals;
  const lines = [
    `scenario ${summary.scenario}  seed ${summary.seed}  status ${summary.status}`,
    `simulated ${fmt(summary.simulatedUs, 3)} µs (window ${fmt(summary.windowUs.from, 3)}–${fmt(summary.windowUs.to, 3)} µs), ${summary.eventsProcessed} events`,
  ];
  if (run !== undefined) {
    lines.push(
      `wall ${fmt(run.wallMs / 1000, 2)} s, ${fmt(run.eventsPerSecond / 1e6, 2)} M events/s, peak RSS ${Math.round(run.peakRssBytes / 2 ** 20)} MiB`,
    );
  }
  lines.push(
    "",
    `messages ${t.completedMessages}/${t.messages} complete, ${t.deliveredBytes} of ${t.offeredBytes} B delivered, ${fmt(t.windowGbps)} Gb/s in the window`,
    `drops ${t.dataDrops}  pause frames ${t.pauseFrames}  resume frames ${t.resumeFrames}  marks FECN ${t.marks.fecn} BECN ${t.marks.becn} CE ${t.marks.ecnCe}`,
  );
  const counters = Object.entries(t.ccCounters);
  if (counters.length > 0) {
    lines.push(`cc ${counters.map(([name, value]) => `${name} ${value}`).join("  ")}`);
  }
  if (summary.fct !== null) {
    const { completionUs: c, slowdown: s } = summary.fct;
    lines.push(
      `completion µs  p50 ${fmt(c.p50, 2)}  p99 ${fmt(c.p99, 2)}  max ${fmt(c.max, 2)}   slowdown p50 ${fmt(s.p50, 2)}  p99 ${fmt(s.p99, 2)}  max ${fmt(s.max, 2)}   last completion ${fmt(summary.fct.lastCompletionUs, 2)} µs`,
    );
  }
  lines.push(
    "",
    ...table(
      ["group", "flows", "mean window Gb/s", "min", "max", "Jain"],
      summary.groups.map((g) => [
        g.name,
        String(g.flows),
        fmt(g.meanGbps),
        fmt(g.minGbps),
        fmt(g.maxGbps),
        g.jainIndex === null ? "-" : fmt(g.jainIndex, 4),
      ]),
    ),
    "",
    ...flowTable(summary),
  );
  if (summary.congestedPorts.length > 0) {
    lines.push(
      "",
      ...table(
        ["busiest input", "VL", "mean B", "max B", "out blocked µs"],
        summary.congestedPorts
          .slice(0, 5)
          .map((p) => [
            `${p.portName} (from ${p.peer})`,
            String(p.vl),
            fmt(p.meanInputBytes, 0),
            String(p.maxInputBytes),
            fmt(p.blockedUs, 1),
          ]),
      ),
    );
  }
  return `${lines.join("\n")}\n`;
}
