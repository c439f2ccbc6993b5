import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { type Figure, plotRun, writeFigures } from "@cclab/plot";
import { writeResults } from "@cclab/sim";
import { DCQCN } from "./dcqcn.js";
import { dcqcnKminReadings } from "./dcqcn-kmin.js";
import { E2CM } from "./e2cm.js";
import { ECOCC } from "./ecocc.js";
import type { Experiment } from "./experiment.js";
import { GRAN_THESIS } from "./gran-thesis.js";
import { ibCcReadings } from "./ib-cc-readings.js";
import { type ReportEntry, reportMarkdown } from "./report.js";
import { SANTOS } from "./santos.js";
import { withRunRecorder } from "./scenario-file.js";
import { SRP } from "./srp.js";
import { TCD } from "./tcd.js";

/** Every experiment, in report order. */
export const EXPERIMENTS: readonly Experiment[] = [
  ...GRAN_THESIS,
  ibCcReadings,
  ...DCQCN,
  dcqcnKminReadings,
  ...SRP,
  ...TCD,
  ...ECOCC,
  ...E2CM,
  ...SANTOS,
];

type Saved = Omit<ReportEntry, "experiment">;

export interface ReproduceOptions {
  /** Experiments to run (ids); undefined runs all. Unknown ids throw a RangeError. */
  readonly only?: readonly string[];
  /** Parameter sweeps at their corners. */
  readonly quick?: boolean;
  /** Run nothing; rewrite the report from saved outcomes. */
  readonly reportOnly?: boolean;
  /** The markdown report to write. */
  readonly reportFile: string;
  /** Where each experiment's outcome is saved; the report lists every saved one. */
  readonly savedDir: string;
  /**
   * Where the runs of shipped scenarios (as shipped, no overrides) are written with their
   * plots, linked from the report; undefined writes none.
   */
  readonly resultsDir?: string;
  /** The command that runs the experiments, saved with each outcome and shown in the report. */
  readonly command: string;
  /**
   * The commit the experiments run on (e.g. `abc1234`, `abc1234+changes`), saved with each
   * outcome; undefined or null when not known.
   */
  readonly commit?: string | null;
  readonly log?: (text: string) => void;
}

/** Ids of the experiments, for messages. */
export const experimentIds = (): string[] => EXPERIMENTS.map((e) => e.id);

/** A figure spec's title text, for the image's alt text. */
function figureTitle(spec: object): string | undefined {
  const title = (spec as { title?: unknown }).title;
  if (typeof title === "string") return title;
  const text = (title as { text?: unknown } | undefined)?.text;
  return typeof text === "string" ? text : undefined;
}

/**
 * Runs experiments of the seed papers and writes the report: each finding beside the paper's
 * figure, the deviation, whether it holds, and (with `resultsDir`) plots of the shipped
 * scenarios' runs. Returns the report's entries.
 */
export async function reproduce(options: ReproduceOptions): Promise<ReportEntry[]> {
  const unknown = (options.only ?? []).filter((id) => !EXPERIMENTS.some((e) => e.id === id));
  if (unknown.length > 0) {
    throw new RangeError(
      `no experiment "${unknown.join(", ")}"; known: ${experimentIds().join(", ")}`,
    );
  }
  const log = options.log ?? (() => {});
  const chosen =
    options.reportOnly === true
      ? []
      : EXPERIMENTS.filter((e) => options.only === undefined || options.only.includes(e.id));
  mkdirSync(options.savedDir, { recursive: true });
  const savedFile = (id: string) => join(options.savedDir, `${id}.json`);
  const plotsOf = (id: string) => join(options.savedDir, `${id}.plots.json`);
  for (const experiment of chosen) {
    log(`${experiment.id} …`);
    const start = performance.now();
    const plots: { scenario: string; images: string[] }[] = [];
    const run = () => experiment.run({ scale: 1, quick: options.quick === true });
    const outcome =
      options.resultsDir === undefined
        ? await run()
        : await withRunRecorder(async (file, result) => {
            const dir = join(
              options.resultsDir!,
              experiment.id,
              basename(file).replace(/\.ya?ml$/, ""),
            );
            writeResults(dir, result);
            const written = await plotRun(dir);
            plots.push({
              scenario: file,
              images: written.filter((f) => f.endsWith(".png")).map((f) => join(dir, f)),
            });
          }, run);
    const wallSeconds = (performance.now() - start) / 1000;
    const held = outcome.findings.filter((f) => f.holds).length;
    log(` ${held}/${outcome.findings.length} hold (${wallSeconds.toFixed(1)} s)\n`);
    const entry: Saved = {
      outcome,
      wallSeconds,
      date: new Date().toISOString().slice(0, 10),
      quick: options.quick === true,
      provenance: {
        command: options.command,
        commit: options.commit ?? null,
        node: process.versions.node,
      },
    };
    writeFileSync(savedFile(experiment.id), `${JSON.stringify(entry, null, 1)}\n`);
    if (options.resultsDir !== undefined)
      writeFileSync(plotsOf(experiment.id), `${JSON.stringify(plots, null, 1)}\n`);
  }
  const report = reportFromSaved(options);
  for (const { dir, figures } of report.figures) await writeFigures(dir, figures);
  mkdirSync(dirname(options.reportFile), { recursive: true });
  writeFileSync(options.reportFile, report.markdown);
  return report.entries;
}

/**
 * The report from the outcomes saved in `savedDir` (every experiment that has one, in report
 * order): its markdown, its entries, and the figures to render beside it (each outcome's own,
 * to `reproductions/<id>/` next to the report). Reads files only; nothing is run or written.
 */
export function reportFromSaved(options: { reportFile: string; savedDir: string }): {
  markdown: string;
  entries: ReportEntry[];
  figures: { dir: string; figures: readonly Figure[] }[];
} {
  const savedFile = (id: string) => join(options.savedDir, `${id}.json`);
  const plotsOf = (id: string) => join(options.savedDir, `${id}.plots.json`);
  const entries: ReportEntry[] = [];
  const toRender: { dir: string; figures: readonly Figure[] }[] = [];
  for (const experiment of EXPERIMENTS) {
    const file = savedFile(experiment.id);
    if (!existsSync(file)) continue;
    const saved = JSON.parse(readFileSync(file, "utf8")) as Saved;
    const plotsFile = plotsOf(experiment.id);
    const plots = existsSync(plotsFile)
      ? (
          JSON.parse(readFileSync(plotsFile, "utf8")) as { scenario: string; images: string[] }[]
        ).map((p) => ({
          scenario: p.scenario,
          images: p.images.map((i) => relative(dirname(options.reportFile), i)),
        }))
      : undefined;
    const figures = saved.outcome.figures ?? [];
    const figureImages: { title: string; image: string }[] = [];
    if (figures.length > 0) {
      // A figure's name becomes a file name in the report's folder: nothing that leaves it.
      const unsafe = figures.find((f) => !/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(f.name));
      if (unsafe !== undefined) {
        throw new RangeError(
          `${experiment.id}: figure name ${JSON.stringify(unsafe.name)} must be letters, digits, "-" or "_"`,
        );
      }
      // Rendered from the saved specs every time, so `--report` redraws them too.
      const dir = join(dirname(options.reportFile), "reproductions", experiment.id);
      toRender.push({ dir, figures });
      for (const f of figures) {
        figureImages.push({
          title: figureTitle(f.spec) ?? f.name,
          image: relative(dirname(options.reportFile), join(dir, `${f.name}.png`)),
        });
      }
    }
    entries.push({
      experiment,
      ...saved,
      ...(plots === undefined ? {} : { plots }),
      ...(figureImages.length === 0 ? {} : { figureImages }),
    });
  }
  const markdown = reportMarkdown(entries, {
    saved: relative(dirname(options.reportFile), options.savedDir) || ".",
  });
  return { markdown, entries, figures: toRender };
}
