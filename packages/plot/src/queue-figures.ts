import { column, type Table } from "./csv.js";
import { type Figure, type LinePoint, lineFigure, MAX_LINES, timeAxisFor } from "./figure.js";
import { portSelected, type RunContext } from "./run-context.js";
import { variableTitle } from "./variable-title.js";

/**
 * The `cc-queues-<variable>` figures from `cc-queues.csv`: one per variable a switch part
 * reports per egress queue (TCD: `state`, `ceMarked`, `ueMarked`, `queueBytes`), a step line
 * per queue labelled by its port name and VL (`S1.p3 VL 0`), as the samples hold from one bin
 * edge to the next. Beyond {@link MAX_LINES} queues, those with the largest sum of samples
 * (the longest in a high state, the most marks), unless `--port` selects them. A variable whose
 * values the parts name (run.json's `queueSeries.valueLabels`: TCD's `state` as NC, CHECK, U,
 * C) shows the names on its y axis at those values.
 */
export function ccQueueFigures(ctx: RunContext, t: Table, file: string): Figure[] {
  const at = (name: string) => column(t, name, file);
  const [time, sw, portName, vl, variable, value] = [
    at("time_us"),
    at("switch"),
    at("port_name"),
    at("vl"),
    at("variable"),
    at("value"),
  ];
  const rows = t.rows.filter((row) => portSelected(ctx.selection, row[portName]!, row[sw]!));
  const selected = ctx.selection.ports !== undefined;
  const seenUs = rows.reduce((m, row) => Math.max(m, Number(row[time])), 0);
  const axis = timeAxisFor(ctx.endUs ?? seenUs);
  const xDomain: [number, number] | undefined =
    ctx.endUs === undefined ? undefined : [0, axis.fromUs(ctx.endUs)];
  const queueOf = (row: readonly string[]) => `${row[portName]} VL ${row[vl]}`;
  const variables = [...new Set(rows.map((row) => row[variable]!))];
  return variables.map((v) => {
    const ofV = rows.filter((row) => row[variable] === v);
    const names = ctx.queueValueLabels.get(v);
    const sums = new Map<string, number>();
    for (const row of ofV) sums.set(queueOf(row), (sums.get(queueOf(row)) ?? 0) + +row[value]!);
    const ranked = [...sums]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([queue]) => queue);
    const keep = new Set(selected ? ranked : ranked.slice(0, MAX_LINES));
    // Legend in port order (S1.p2 before S1.p10), not rank order.
    const points: LinePoint[] = ofV
      .filter((row) => keep.has(queueOf(row)))
      .map((row) => ({ x: axis.fromUs(+row[time]!), y: +row[value]!, series: queueOf(row) }))
      .sort((a, b) => a.series.localeCompare(b.series, "en", { numeric: true }) || a.x - b.x);
    return lineFigure({
      name: `cc-queues-${v}`,
      title: `${ctx.name}: CC state per switch egress queue, ${variableTitle(v)}`,
      subtitle: selected
        ? `the ports selected with --port (${keep.size} queue${keep.size === 1 ? "" : "s"})`
        : keep.size < ranked.length
          ? `the ${keep.size} queues with the largest sum of samples, of ${ranked.length}`
          : `all ${ranked.length} queues the switch parts reported`,
      xTitle: `time (${axis.unit})`,
      yTitle: variableTitle(v),
      legendTitle: "switch output, VL",
      points,
      step: true,
      ...(xDomain === undefined ? {} : { xDomain }),
      yDomainMin: 0,
      // Named values (TCD's states) show their names on the y axis.
      ...(names === undefined ? {} : { yValueLabels: names }),
    });
  });
}
