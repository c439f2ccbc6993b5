import { expect, it } from "vitest";
import { lineFigure } from "../src/index.js";

const base = {
  name: "f",
  title: "t",
  xTitle: "x",
  yTitle: "y",
  legendTitle: "s",
  points: [
    { x: 256, y: 3, series: "a" },
    { x: 4096, y: 1, series: "a" },
  ],
};

// biome-ignore lint/suspicious/noExplicitAny: reading into the generated Vega-Lite spec
const lineLayer = (spec: unknown) => (spec as any).layer.at(-1);

it("puts ticks at the given x values and a mark at each point when asked", () => {
  const layer = lineLayer(lineFigure({ ...base, xTicks: [256, 4096], pointMarks: true }).spec);
  expect(layer.encoding.x.axis).toEqual({ values: [256, 4096], format: "," });
  expect(layer.mark.point).toBe(true);
});

it("leaves the axis and the marks to Vega-Lite otherwise", () => {
  const layer = lineLayer(lineFigure(base).spec);
  expect(layer.encoding.x.axis).toBeUndefined();
  expect(layer.mark.point).toBeUndefined();
});
