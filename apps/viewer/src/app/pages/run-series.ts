import type { LineInfo, RunEntry, SeriesInfo } from "../../data/types.js";
import { Chart, ChartGroup } from "../chart.js";
import { colorAt } from "../colors.js";
import { fmt, h } from "../dom.js";
import type { PageContext } from "../main.js";
import { findRun, runHeader } from "./nav.js";

/** Lines a chart shows until the user picks others. */
export const DEFAULT_LINES = 8;

/** Every series set of the run, a chart each; zoom and cursor move together. */
export async function runSeriesPage(ctx: PageContext, [id]: string[]): Promise<void> {
  const entry = findRun(ctx.manifest, id!);
  const detail = await ctx.source.run(entry.id);
  ctx.root.append(runHeader(entry, "series"));
  if (detail.series.length === 0) {
    ctx.root.append(
      h(
        "p",
        {},
        "This run recorded no series (metrics.series, or a sweep point without keepSeries).",
      ),
    );
    return;
  }
  ctx.root.append(
    h(
      "p",
      { className: "muted hint" },
      "Drag across a plot to zoom, wheel to zoom, shift+wheel to pan, double-click to reset; all charts follow. Click a legend entry to hide its line.",
    ),
  );
  const group = new ChartGroup();
  ctx.onLeave(() => {
    for (const c of group.charts) c.destroy();
  });
  // One colour per flow or port on every chart of the page (the first set's ranking first).
  const colours = new Map<string, string>();
  for (const info of detail.series) {
    for (const l of info.lines) if (!colours.has(l.key)) colours.set(l.key, colorAt(colours.size));
  }
  await Promise.all(
    detail.series.map((info) => seriesBlock(ctx, entry, info, group, (k) => colours.get(k)!)),
  );
}

async function seriesBlock(
  ctx: PageContext,
  entry: RunEntry,
  info: SeriesInfo,
  group: ChartGroup,
  colourOf: (key: string) => string,
): Promise<void> {
  const holder = h("div", { className: "chart-holder" });
  const chosen = new Set(info.lines.slice(0, DEFAULT_LINES).map((l) => l.key));
  let chart: Chart | undefined;
  const draw = async () => {
    const range = chart?.currentRange();
    if (chart !== undefined) {
      chart.destroy();
      group.charts.splice(group.charts.indexOf(chart), 1);
    }
    const lines = info.lines.filter((l) => chosen.has(l.key));
    chart = new Chart(
      ctx.source,
      {
        title: info.title,
        unit: info.unit,
        layers: [{ runId: entry.id, set: info.name, lines }],
        fullRange: [Math.min(0, info.xMinUs), Math.max(info.xMaxUs, entry.simulatedUs)],
        ...(info.stepped === true ? { stepped: true } : {}),
        ...(info.valueLabels === undefined ? {} : { valueLabels: info.valueLabels }),
        colorOf: colourOf,
      },
      group,
    );
    holder.replaceChildren(chart.el);
    await chart.mount();
    if (range !== undefined) chart.setRange(range[0], range[1]);
  };
  ctx.root.append(
    holder,
    linePicker(info.lines, chosen, () => void draw()),
  );
  await draw();
}

/** Checkboxes for the lines of a set (ranked by mean), shown under its chart. */
function linePicker(lines: readonly LineInfo[], chosen: Set<string>, changed: () => void) {
  const boxes = lines.map((l) => {
    const box = h("input", { type: "checkbox", checked: chosen.has(l.key) });
    box.addEventListener("change", () => {
      if (box.checked) chosen.add(l.key);
      else chosen.delete(l.key);
      changed();
    });
    return h(
      "label",
      { className: "line-choice" },
      box,
      ` ${l.label} `,
      h("span", { className: "muted" }, `mean ${fmt(l.mean)} max ${fmt(l.max)}`),
    );
  });
  return h(
    "details",
    { className: "lines" },
    h(
      "summary",
      {},
      `lines: ${Math.min(chosen.size, lines.length)} of ${lines.length} shown (ranked by mean)`,
    ),
    h("div", { className: "line-list" }, boxes),
  );
}
