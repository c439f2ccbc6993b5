import type { TopLevelSpec } from "vega-lite";
import type { Figure } from "./figure.js";
import { FIGURE_CONFIG } from "./render.js";

/** One cell of a heat map; `value` undefined draws an empty cell labelled with `label`. */
export interface HeatCell {
  readonly x: string;
  readonly y: string;
  readonly value: number | undefined;
  readonly label: string;
}

export interface HeatmapOptions {
  readonly name: string;
  readonly title: string;
  readonly subtitle?: string;
  readonly xTitle: string;
  readonly yTitle: string;
  readonly colorTitle: string;
  /** Column and row labels in axis order (rows are drawn with the first at the bottom). */
  readonly xOrder: readonly string[];
  readonly yOrder: readonly string[];
  readonly cells: readonly HeatCell[];
}

/**
 * A heat map over two sweep axes: colour is the value (viridis, readable in grey), and every
 * cell is labelled with its number so the figure can be read without the colour bar.
 */
export function heatmapFigure(o: HeatmapOptions): Figure {
  const values = o.cells.map((c) => c.value).filter((v): v is number => v !== undefined);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const middle = (lo + hi) / 2;
  const data = o.cells.map((c) => ({
    x: c.x,
    y: c.y,
    value: c.value ?? null,
    label: c.label,
    dark: c.value !== undefined && c.value < middle,
  }));
  const spec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: o.subtitle === undefined ? o.title : { text: o.title, subtitle: o.subtitle },
    config: FIGURE_CONFIG,
    width: { step: Math.max(52, 7 * Math.max(...o.cells.map((c) => c.label.length))) },
    height: { step: 34 },
    data: { values: data },
    encoding: {
      x: {
        field: "x",
        type: "ordinal",
        title: o.xTitle,
        sort: [...o.xOrder],
        axis: { labelAngle: 0 },
      },
      y: { field: "y", type: "ordinal", title: o.yTitle, sort: [...o.yOrder].reverse() },
    },
    layer: [
      {
        transform: [{ filter: "datum.value !== null" }],
        mark: { type: "rect" },
        encoding: {
          color: {
            field: "value",
            type: "quantitative",
            title: o.colorTitle,
            scale: { scheme: "viridis" },
            // The colour bar as tall as the map (at least 120 px to stay readable).
            legend: { titleLimit: 320, gradientLength: Math.max(120, 34 * o.yOrder.length) },
          },
        },
      },
      {
        mark: { type: "text", fontSize: 10 },
        encoding: {
          text: { field: "label" },
          color: { condition: { test: "datum.dark", value: "white" }, value: "black" },
        },
      },
    ],
  };
  return { name: o.name, spec: spec as unknown as TopLevelSpec };
}
