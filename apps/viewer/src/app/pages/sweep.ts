import type { AxisValue, SweepEntry } from "../../data/types.js";
import { ramp, rampText } from "../colors.js";
import { fmt, h, s } from "../dom.js";
import type { PageContext } from "../main.js";
import { axisText, type Cell, cellKey, gridCells } from "../sweep-grid.js";
import { sortableTable } from "../table.js";

/**
 * A sweep: a heat map over its first two axes (a line over one), one metric of sweep.csv
 * (mean over seeds), the other axes fixed by choice; a cell or point opens its run. Below,
 * sweep.csv as a sortable table.
 */
export async function sweepPage(ctx: PageContext, [id]: string[]): Promise<void> {
  const sweep = ctx.manifest.sweeps.find((x) => x.id === id);
  if (sweep === undefined) throw new Error(`no sweep "${id}" here`);
  const metric = h(
    "select",
    { id: "sweep-metric" },
    sweep.metrics.map((m) => h("option", { value: m }, m)),
  );
  metric.value = sweep.plot[0] ?? sweep.metrics[0] ?? "";
  const fixed: Record<string, AxisValue> = {};
  const fixers = sweep.axes.slice(2).map((axis) => {
    fixed[axis.path] = axis.values[0] ?? null;
    const sel = h(
      "select",
      {},
      axis.values.map((v, i) => h("option", { value: String(i) }, axisText(v))),
    );
    sel.addEventListener("change", () => {
      fixed[axis.path] = axis.values[Number(sel.value)] ?? null;
      draw();
    });
    return h("label", {}, ` ${axis.path} = `, sel);
  });
  const figure = h("div", { className: "sweep-figure" });
  const draw = () => {
    figure.replaceChildren(
      sweep.axes.length >= 2
        ? heatMap(sweep, fixed, metric.value)
        : lineFigure(sweep, metric.value),
    );
  };
  metric.addEventListener("change", draw);
  ctx.root.append(
    h(
      "div",
      { className: "page-head" },
      h("h2", {}, `Sweep ${sweep.name}`),
      h("p", { className: "muted" }, `${sweep.points.length} points · ${sweep.path}`),
    ),
    h("div", { className: "controls" }, "metric ", metric, fixers),
    figure,
    overlayLink(sweep),
    pointTable(sweep),
  );
  draw();
}

function heatMap(
  sweep: SweepEntry,
  fixed: Record<string, AxisValue>,
  metric: string,
): SVGSVGElement {
  const [ax, ay] = sweep.axes as [SweepEntry["axes"][0], SweepEntry["axes"][0]];
  const cells = gridCells(sweep, [ax.path, ay.path], fixed, metric);
  const means = [...cells.values()].map((c) => c.mean).filter((v): v is number => v !== null);
  const [lo, hi] = [Math.min(...means), Math.max(...means)];
  const cw = Math.max(48, Math.min(110, 900 / ax.values.length));
  const ch = Math.max(26, Math.min(60, 420 / ay.values.length));
  const left = 90;
  const top = 40;
  const keyWidth = Math.max(140, metric.length * 7.5);
  const width = left + cw * ax.values.length + 30 + keyWidth;
  const height = top + Math.max(ch * ay.values.length + 50, 140);
  const rects = ay.values.flatMap((vy, row) =>
    ax.values.map((vx, col) => {
      const cell = cells.get(cellKey([vx, vy]));
      const t = cell?.mean == null || hi === lo ? 0.5 : (cell.mean - lo) / (hi - lo);
      const x = left + col * cw;
      const y = top + (ay.values.length - 1 - row) * ch;
      const body = [
        s("rect", {
          x,
          y,
          width: cw - 1,
          height: ch - 1,
          fill: cell?.mean == null ? "#ddd" : ramp(t),
        }),
        s(
          "text",
          { x: x + cw / 2, y: y + ch / 2 + 4, "text-anchor": "middle", fill: rampText(t) },
          fmt(cell?.mean, 3),
        ),
        s("title", {}, cellTitle(sweep, [vx, vy], cell, metric)),
      ];
      return cell?.runId === undefined
        ? s("g", { class: "cell" }, body)
        : s(
            "a",
            {
              href: `#/run/${encodeURIComponent(cell.runId)}`,
              class: "cell",
              "data-run": cell.runId,
            },
            body,
          );
    }),
  );
  const xTicks = ax.values.map((v, i) =>
    s(
      "text",
      { x: left + i * cw + cw / 2, y: top + ch * ay.values.length + 16, "text-anchor": "middle" },
      axisText(v),
    ),
  );
  const yTicks = ay.values.map((v, i) =>
    s(
      "text",
      { x: left - 6, y: top + (ay.values.length - 1 - i) * ch + ch / 2 + 4, "text-anchor": "end" },
      axisText(v),
    ),
  );
  const keyX = left + cw * ax.values.length + 20;
  return s(
    "svg",
    { width, height, class: "heatmap", role: "img" },
    rects,
    xTicks,
    yTicks,
    s(
      "text",
      {
        x: left + (cw * ax.values.length) / 2,
        y: top + ch * ay.values.length + 40,
        "text-anchor": "middle",
        class: "axis-label",
      },
      ax.path,
    ),
    s("text", { x: 4, y: top - 14, class: "axis-label" }, `↑ ${ay.path}`),
    Array.from({ length: 11 }, (_, i) =>
      s("rect", { x: keyX, y: top + (10 - i) * 12, width: 14, height: 12, fill: ramp(i / 10) }),
    ),
    s("text", { x: keyX + 20, y: top + 10 }, fmt(hi, 3)),
    s("text", { x: keyX + 20, y: top + 130 }, fmt(lo, 3)),
    s("text", { x: keyX, y: top - 14, class: "axis-label" }, metric),
  );
}

function lineFigure(sweep: SweepEntry, metric: string): SVGSVGElement {
  const axis = sweep.axes[0]!;
  const cells = gridCells(sweep, [axis.path], {}, metric);
  const ys = [...cells.values()].flatMap((c) =>
    c.points.map((p) => p.metrics[metric]).filter((v): v is number => typeof v === "number"),
  );
  const lo = Math.min(0, ...ys);
  const hi = Math.max(...ys, lo + 1e-9);
  const [w, hgt, left, top] = [720, 300, 70, 20];
  const px = (i: number) => left + ((i + 0.5) / axis.values.length) * (w - left - 20);
  const py = (v: number) => top + (1 - (v - lo) / (hi - lo)) * (hgt - top - 50);
  const means = axis.values.map((v, i) => ({ i, c: cells.get(cellKey([v])) }));
  const path = means
    .filter((m) => m.c?.mean != null)
    .map((m, k) => `${k === 0 ? "M" : "L"}${px(m.i)},${py(m.c!.mean!)}`)
    .join(" ");
  return s(
    "svg",
    { width: w, height: hgt, class: "sweep-line", role: "img" },
    s("line", { x1: left, y1: py(lo), x2: w - 20, y2: py(lo), stroke: "#999" }),
    s("line", { x1: left, y1: top, x2: left, y2: py(lo), stroke: "#999" }),
    s("text", { x: left - 6, y: top + 4, "text-anchor": "end" }, fmt(hi, 3)),
    s("text", { x: left - 6, y: py(lo) + 4, "text-anchor": "end" }, fmt(lo, 3)),
    s("path", { d: path, fill: "none", stroke: "#4e79a7", "stroke-width": 2 }),
    means.map(({ i, c }) => {
      const v = axis.values[i]!;
      const body = [
        s("circle", { cx: px(i), cy: py(c?.mean ?? lo), r: 6, fill: "#4e79a7" }),
        s("title", {}, cellTitle(sweep, [v], c, metric)),
      ];
      return c?.runId === undefined
        ? s("g", {}, body)
        : s(
            "a",
            { href: `#/run/${encodeURIComponent(c.runId)}`, class: "cell", "data-run": c.runId },
            body,
          );
    }),
    axis.values.map((v, i) =>
      s("text", { x: px(i), y: hgt - 32, "text-anchor": "middle" }, axisText(v)),
    ),
    s(
      "text",
      { x: (left + w) / 2, y: hgt - 10, "text-anchor": "middle", class: "axis-label" },
      `${axis.path} → ${metric}`,
    ),
  );
}

function cellTitle(
  sweep: SweepEntry,
  values: AxisValue[],
  cell: Cell | undefined,
  metric: string,
): string {
  const where = values.map((v, i) => `${sweep.axes[i]!.path} = ${axisText(v)}`).join(", ");
  if (cell === undefined) return `${where}: no point`;
  const seeds = cell.points.map(
    (p) => `${p.id} (seed ${p.seed}, ${p.status}): ${fmt(p.metrics[metric])}`,
  );
  return `${where}\n${metric} mean ${fmt(cell.mean)}\n${seeds.join("\n")}${cell.runId === undefined ? "" : "\nclick to open the run"}`;
}

function pointTable(sweep: SweepEntry): HTMLElement {
  const shown = sweep.plot.length > 0 ? sweep.plot : sweep.metrics.slice(0, 4);
  return sortableTable({
    title: "Points (sweep.csv)",
    header: ["point", ...sweep.axes.map((a) => a.path), "seed", "status", ...shown],
    rows: sweep.points.map((p) => [
      p.runId === undefined ? p.id : { text: p.id, href: `#/run/${encodeURIComponent(p.runId)}` },
      ...sweep.axes.map((a) => axisText(p.values[a.path] ?? null)),
      p.seed,
      p.status,
      ...shown.map((m) => {
        const v = p.metrics[m];
        return v === null || v === undefined ? "–" : Number(v.toFixed(4));
      }),
    ]),
  });
}

/** Overlays the first few finished points (their series, when the sweep kept them). */
function overlayLink(sweep: SweepEntry): HTMLElement {
  const runs = sweep.points.flatMap((p) => (p.runId === undefined ? [] : [p.runId]));
  if (runs.length < 2) return h("span");
  const shown = runs.slice(0, 6);
  return h(
    "p",
    {},
    h(
      "a",
      { href: `#/overlay/${shown.join(",")}`, id: "sweep-overlay" },
      `Overlay ${shown.length} points`,
    ),
    h(
      "span",
      { className: "muted" },
      runs.length > shown.length ? ` (the first ${shown.length} of ${runs.length})` : "",
    ),
  );
}
