import { createRequire } from "node:module";
import { Resvg } from "@resvg/resvg-js";
import { parse, View } from "vega";
import { compile, type TopLevelSpec } from "vega-lite";

const require = createRequire(import.meta.url);

/**
 * The one font every figure uses, shipped by npm (dejavu-fonts-ttf), so a PNG looks the same
 * on a machine without system fonts (CI containers have none).
 */
export const FONT_FAMILY = "DejaVu Sans";
const FONT_FILE = require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf");

/** PNGs are rendered at twice the SVG's size: readable on high-density screens and in papers. */
const PNG_ZOOM = 2;

/** Style shared by every figure: one font, white background, readable sizes. */
export const FIGURE_CONFIG = {
  font: FONT_FAMILY,
  background: "white",
  axis: { labelFontSize: 11, titleFontSize: 12 },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260, titleLimit: 260 },
  title: { fontSize: 14, anchor: "start" },
  view: { stroke: "#ccc" },
} as const;

/** Renders a Vega-Lite spec to SVG headlessly (no browser, no canvas). */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Rasterizes an SVG from {@link renderSvg} to PNG with the bundled font. */
export function svgToPng(svg: string): Buffer {
  const resvg = new Resvg(svg, {
    font: { fontFiles: [FONT_FILE], loadSystemFonts: false, defaultFontFamily: FONT_FAMILY },
    fitTo: { mode: "zoom", value: PNG_ZOOM },
    background: "white",
  });
  return resvg.render().asPng();
}
