import type { LineInfo, RunDetail, SeriesInfo } from "../../data/types.js";
import { Chart, ChartGroup, type Layer } from "../chart.js";
import { colorAt, DASHES } from "../colors.js";
import { h } from "../dom.js";
import type { PageContext } from "../main.js";
import { sortableTable } from "../table.js";
import { findRun } from "./nav.js";

/** Lines per run and set in an overlay (every group's mean is drawn). */
const OVERLAY_LINES = 3;

/**
 * Several runs on top of each other: per series set the runs have, the same lines of each run
 * (a line keeps its colour; each run has its dash), and the groups' mean throughput side by side.
 */
export async function overlayPage(ctx: PageContext, [ids]: string[]): Promise<void> {
  const entries = ids!.split(",").map((id) => findRun(ctx.manifest, id));
  const details = await Promise.all(entries.map((e) => ctx.source.run(e.id)));
  ctx.root.append(
    h("div", { className: "page-head" }, h("h2", {}, `Overlay of ${entries.length} runs`)),
    h(
      "ul",
      { className: "legend-runs" },
      entries.map((e, i) =>
        h(
          "li",
          {},
          dashSample(i),
          h("a", { href: `#/run/${encodeURIComponent(e.id)}` }, e.label),
          h("span", { className: "muted" }, ` ${e.scenario} · seed ${e.seed}`),
        ),
      ),
    ),
    groupTable(details),
  );
  const group = new ChartGroup();
  ctx.onLeave(() => {
    for (const c of group.charts) c.destroy();
  });
  const names = [...new Set(details.flatMap((d) => d.series.map((s) => s.name)))];
  const end = Math.max(...entries.map((e) => e.simulatedUs));
  const charts = names.map((name) => {
    const infos = details.map((d) => d.series.find((s) => s.name === name));
    const first = infos.find((i) => i !== undefined)!;
    const keys = overlayKeys(name, infos);
    const layers: Layer[] = details.flatMap((d, i) => {
      const info = infos[i];
      if (info === undefined) return [];
      const lines = keys
        .map((k) => info.lines.find((l) => l.key === k))
        .filter((l): l is LineInfo => l !== undefined);
      return [{ runId: d.entry.id, prefix: `${d.entry.label}: `, set: name, lines }];
    });
    const chart = new Chart(
      ctx.source,
      {
        title: first.title,
        unit: first.unit,
        layers,
        fullRange: [Math.min(0, ...infos.map((i) => i?.xMinUs ?? 0)), end],
        ...(first.stepped === true ? { stepped: true } : {}),
        ...(first.valueLabels === undefined ? {} : { valueLabels: first.valueLabels }),
        colorOf: (key) => colorAt(keys.indexOf(key)),
      },
      group,
    );
    ctx.root.append(chart.el);
    return chart;
  });
  await Promise.all(charts.map((c) => c.mount()));
}

/** The line keys an overlay draws: the top lines of each run, the first run's first. */
function overlayKeys(name: string, infos: readonly (SeriesInfo | undefined)[]): string[] {
  const take = name === "group-throughput" ? Number.POSITIVE_INFINITY : OVERLAY_LINES;
  const keys: string[] = [];
  for (const info of infos) {
    for (const l of info?.lines.slice(0, take) ?? []) if (!keys.includes(l.key)) keys.push(l.key);
  }
  return keys.slice(0, name === "group-throughput" ? keys.length : OVERLAY_LINES + 1);
}

function dashSample(i: number): SVGSVGElement {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("width", "40");
  svg.setAttribute("height", "10");
  svg.innerHTML = `<line x1="0" y1="5" x2="40" y2="5" stroke="#333" stroke-width="2" stroke-dasharray="${DASHES[i % DASHES.length]!.join(" ")}"/>`;
  return svg;
}

/** Each traffic group's mean window Gb/s per run, from the runs' summaries. */
function groupTable(details: readonly RunDetail[]): HTMLElement {
  const groups = new Map<string, (string | number)[]>();
  details.forEach((d, i) => {
    const t = d.tables.find((x) => x.title === "Traffic groups");
    for (const row of t?.rows ?? []) {
      const name = String(row[0]);
      const cells = groups.get(name) ?? details.map(() => "–");
      cells[i] = row[2]!;
      groups.set(name, cells);
    }
  });
  return sortableTable({
    title: "Mean window Gb/s per flow, by traffic group",
    header: ["group", ...details.map((d) => d.entry.label)],
    rows: [...groups].map(([g, cells]) => [g, ...cells]),
  });
}
