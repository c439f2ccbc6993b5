import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Catalog } from "../data/catalog.js";
import { EXPORT_GLOBAL } from "../data/export-global.js";
import type { ExportData, RunDetail, SeriesData } from "../data/types.js";

/**
 * Writes the app and every run's detail and full series into `outDir`: `index.html` opens from
 * the file system (file://, no server), since the data come in `data.js`, a classic script
 * that sets a global (Chromium does not let a page on file:// fetch files). Returns the
 * written `index.html`.
 */
export async function exportViewer(
  catalog: Catalog,
  appDir: string,
  outDir: string,
): Promise<string> {
  const runs: Record<string, RunDetail> = {};
  const series: Record<string, Record<string, SeriesData>> = {};
  for (const run of catalog.allRuns()) {
    runs[run.entry.id] = await run.detail();
    series[run.entry.id] = Object.fromEntries((await run.sets()).map((s) => [s.info.name, s.data]));
  }
  const data: ExportData = { manifest: catalog.manifest, runs, series };
  mkdirSync(outDir, { recursive: true });
  cpSync(appDir, outDir, { recursive: true });
  writeFileSync(
    join(outDir, "data.js"),
    `globalThis.${EXPORT_GLOBAL} = ${JSON.stringify(data)};\n`,
  );
  return join(outDir, "index.html");
}
