import uPlot from "uplot";
import type { LineInfo, SeriesData } from "../data/types.js";
import { colorAt, DASHES } from "./colors.js";
import { fmt, h } from "./dom.js";
import type { DataSource } from "./source.js";

/** The lines of one run's series set a chart draws. */
export interface Layer {
  readonly runId: string;
  /** Put before each line's label when several runs are overlaid. */
  readonly prefix?: string;
  readonly set: string;
  readonly lines: readonly LineInfo[];
}

export interface ChartSpec {
  readonly title: string;
  readonly unit: string;
  readonly layers: readonly Layer[];
  /** The whole time axis (µs) a reset returns to. */
  readonly fullRange: readonly [number, number];
  readonly stepped?: boolean;
  readonly valueLabels?: Readonly<Record<string, string>>;
  /** A line's colour by its key (so one flow has one colour in every overlaid run). */
  readonly colorOf?: (key: string, index: number) => string;
}

/** Charts whose zoom and cursor move together (one page's charts). */
export class ChartGroup {
  readonly key = `g${Math.random().toString(36).slice(2)}`;
  readonly charts: Chart[] = [];
  private syncing = false;

  /** A chart's range changed by the user: every other chart follows. */
  moved(from: Chart, min: number, max: number): void {
    if (this.syncing) return;
    this.syncing = true;
    try {
      for (const c of this.charts) if (c !== from) c.setRange(min, max);
    } finally {
      this.syncing = false;
    }
  }
}

/**
 * A time-series chart (uPlot) that zooms (drag a range, the wheel, the buttons), pans
 * (shift+wheel, the arrows) and shows every line's value under the cursor. It asks its data
 * source for about two points per pixel over the visible range, so a long run is drawn from
 * each bucket's extremes and a zoom fetches the range again, at full resolution once the
 * range holds few enough samples. Double-click resets. The element's `data-from`, `data-to`
 * (µs) and `data-full` (true: the samples as recorded) say what is shown.
 */
export class Chart {
  readonly el: HTMLElement;
  private plot: uPlot | undefined;
  private range: [number, number];
  private loaded: [number, number] = [Number.NaN, Number.NaN];
  private applying = false;
  /** Whether the data drawn are every sample of the range (not buckets' extremes). */
  private full = true;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly plotEl = h("div", { className: "plot" });
  private readonly status = h("span", { className: "status" });

  constructor(
    private readonly source: DataSource,
    private readonly spec: ChartSpec,
    private readonly group: ChartGroup,
  ) {
    this.range = [spec.fullRange[0], spec.fullRange[1]];
    const button = (label: string, title: string, act: () => void) =>
      h("button", { type: "button", title, onclick: act }, label);
    this.el = h(
      "section",
      { className: "chart", "data-chart": spec.layers[0]?.set ?? "" },
      h(
        "div",
        { className: "chart-head" },
        h("h3", {}, spec.title, h("span", { className: "unit" }, ` (${spec.unit})`)),
        h(
          "div",
          { className: "tools" },
          button("◀", "pan left (shift+wheel)", () => this.pan(-0.25)),
          button("▶", "pan right (shift+wheel)", () => this.pan(0.25)),
          button("+", "zoom in (wheel, or drag across the plot)", () => this.zoom(0.5)),
          button("−", "zoom out (wheel)", () => this.zoom(2)),
          button("reset", "whole run (double-click)", () => this.reset()),
          this.status,
        ),
      ),
      this.plotEl,
    );
    group.charts.push(this);
  }

  /** Draws the chart once its element is in the page (its width is known then). */
  async mount(): Promise<void> {
    const data = await this.fetch(this.range[0], this.range[1]);
    // uPlot sets the x scale to the data's extent as it starts: the range asked for wins.
    this.applying = true;
    try {
      this.plot = new uPlot(this.options(), data, this.plotEl);
      this.plot.setScale("x", { min: this.range[0], max: this.range[1] });
    } finally {
      this.applying = false;
    }
    this.bindWheel(this.plot);
    this.show();
    window.addEventListener("resize", this.onResize);
  }

  setRange(min: number, max: number): void {
    const [lo, hi] = this.spec.fullRange;
    const width = Math.max(max - min, 1e-6);
    const a = Math.max(lo, Math.min(min, hi - width));
    const b = Math.min(hi, a + width);
    this.range = [a, b];
    this.plot?.setScale("x", { min: a, max: b });
  }

  currentRange(): readonly [number, number] {
    return this.range;
  }

  destroy(): void {
    window.removeEventListener("resize", this.onResize);
    this.plot?.destroy();
  }

  private reset(): void {
    this.setRange(this.spec.fullRange[0], this.spec.fullRange[1]);
    this.group.moved(this, this.range[0], this.range[1]);
  }

  private pan(share: number): void {
    const [a, b] = this.range;
    const d = (b - a) * share;
    this.setRange(a + d, b + d);
    this.group.moved(this, this.range[0], this.range[1]);
  }

  private zoom(factor: number, at = (this.range[0] + this.range[1]) / 2): void {
    const [a, b] = this.range;
    this.setRange(at - (at - a) * factor, at + (b - at) * factor);
    this.group.moved(this, this.range[0], this.range[1]);
  }

  private readonly onResize = () => {
    this.plot?.setSize({ width: this.width(), height: 280 });
  };

  private width(): number {
    return Math.max(320, this.plotEl.clientWidth || this.el.clientWidth || 800);
  }

  private bindWheel(u: uPlot): void {
    u.over.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
          this.pan(Math.sign(e.deltaX || e.deltaY) * 0.1);
        } else {
          const at = u.posToVal(e.offsetX, "x");
          this.zoom(e.deltaY < 0 ? 0.8 : 1.25, at);
        }
      },
      { passive: false },
    );
    u.over.addEventListener("dblclick", () => this.reset());
  }

  private options(): uPlot.Options {
    const labels = this.spec.valueLabels;
    const lines = this.spec.layers.flatMap((layer, li) =>
      layer.lines.map((line, i) => ({ layer, li, line, i })),
    );
    const stepped = this.spec.stepped === true ? uPlot.paths.stepped?.({ align: 1 }) : undefined;
    return {
      width: this.width(),
      height: 280,
      scales: { x: { time: false } },
      series: [
        { label: "time µs", value: (_u, v) => fmt(v, 3) },
        ...lines.map(({ layer, li, line, i }) => ({
          label: `${layer.prefix ?? ""}${line.label}`,
          stroke: this.spec.colorOf?.(line.key, i) ?? colorAt(i),
          width: 1.5,
          dash: [...DASHES[li % DASHES.length]!],
          spanGaps: this.spec.layers.length > 1,
          ...(stepped === undefined ? {} : { paths: stepped }),
          value: (_u: uPlot, v: number | null) =>
            v === null ? "–" : (labels?.[String(v)] ?? fmt(v, 3)),
        })),
      ],
      axes: [
        { label: "time (µs)", values: (_u, splits) => splits.map((v) => fmt(v, 3)) },
        {
          label: this.spec.unit,
          // Wide enough for the longest tick label (a state's name, 1.25M bytes).
          size: (_u: uPlot, values: string[] | null) =>
            28 + 7 * Math.max(3, ...(values ?? []).map((v) => String(v).length)),
          ...(labels === undefined
            ? { values: (_u: uPlot, splits: number[]) => splits.map(tick) }
            : {
                splits: () => Object.keys(labels).map(Number),
                values: (_u: uPlot, splits: number[]) =>
                  splits.map((v) => labels[String(v)] ?? fmt(v)),
              }),
        },
      ],
      cursor: {
        drag: { x: true, y: false, setScale: true },
        sync: { key: this.group.key },
        bind: { dblclick: () => () => null },
      },
      hooks: { setScale: [(u, key) => key === "x" && this.scaled(u)] },
    };
  }

  /** The x scale changed (a drag, a button, another chart): fetch that range if not loaded. */
  private scaled(u: uPlot): void {
    const { min, max } = u.scales.x;
    if (min === undefined || max === undefined || min === null || max === null) return;
    if (this.applying) return;
    const user = min !== this.range[0] || max !== this.range[1];
    this.range = [min, max];
    this.show();
    if (user) this.group.moved(this, min, max);
    if (min === this.loaded[0] && max === this.loaded[1]) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refetch(min, max), 80);
  }

  private async refetch(min: number, max: number): Promise<void> {
    const data = await this.fetch(min, max);
    if (this.plot === undefined || this.range[0] !== min || this.range[1] !== max) return;
    this.applying = true;
    try {
      this.plot.setData(data, false);
      this.plot.setScale("x", { min, max });
    } finally {
      this.applying = false;
    }
    this.show();
  }

  private async fetch(min: number, max: number): Promise<uPlot.AlignedData> {
    this.status.textContent = "loading…";
    const points = Math.round(this.width() * 2);
    const parts = await Promise.all(
      this.spec.layers.map((l) =>
        this.source.series(l.runId, l.set, {
          fromUs: min,
          toUs: max,
          points,
          lines: l.lines.map((x) => x.key),
        }),
      ),
    );
    this.loaded = [min, max];
    this.full = parts.every((p) => p.full);
    return merge(
      parts,
      this.spec.layers.map((l) => l.lines.map((x) => x.key)),
    );
  }

  private show(): void {
    const [a, b] = this.range;
    this.el.dataset.from = String(a);
    this.el.dataset.to = String(b);
    this.el.dataset.full = String(this.full);
    this.status.textContent = `${fmt(a, 1)}–${fmt(b, 1)} µs${this.full ? "" : " · downsampled"}`;
  }
}

/** A y tick: 1.25M, 12.5k, 0.75. */
function tick(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${fmt(v / 1e6, 2)}M`;
  if (a >= 1e4) return `${fmt(v / 1e3, 1)}k`;
  return fmt(v, 3);
}

/** Several layers' data on one x axis (the union of their x values; a gap where one has none). */
export function merge(
  parts: readonly SeriesData[],
  keys: readonly (readonly string[])[],
): uPlot.AlignedData {
  const xs = [...new Set(parts.flatMap((p) => p.x))].sort((a, b) => a - b);
  const at = new Map(xs.map((x, i) => [x, i]));
  const ys: (number | null)[][] = [];
  parts.forEach((p, li) => {
    const byKey = new Map(p.lines.map((l) => [l.key, l.y]));
    for (const key of keys[li]!) {
      const out: (number | null)[] = new Array(xs.length).fill(null);
      const y = byKey.get(key);
      if (y !== undefined) {
        p.x.forEach((x, i) => {
          out[at.get(x)!] = y[i] ?? null;
        });
      }
      ys.push(out);
    }
  });
  return [xs, ...ys];
}
