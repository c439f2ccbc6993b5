/**
 * `reproductions.md` is a function of the committed outcomes (apps/reproduce/outcomes/): this
 * checks that the committed report is exactly what `npm run reproduce -- --report` writes from
 * them, that every experiment has a saved outcome, and that every figure the report shows is
 * committed beside it. A number typed into the report, or an outcome changed without
 * regenerating the report, fails here.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { OUTCOMES_DIR, REPORT_FILE } from "../src/report-files.js";
import { EXPERIMENTS, reportFromSaved } from "../src/reproduce.js";

describe("the committed report", () => {
  const report = reportFromSaved({ reportFile: REPORT_FILE, savedDir: OUTCOMES_DIR });

  it("is what the generator writes from the committed outcomes", () => {
    const committed = readFileSync(REPORT_FILE, "utf8");
    expect(
      report.markdown === committed,
      "reproductions.md differs from `npm run reproduce -- --report`",
    ).toBe(true);
  });

  it("has an outcome for every experiment", () => {
    const missing = EXPERIMENTS.filter((e) => !existsSync(join(OUTCOMES_DIR, `${e.id}.json`)));
    expect(missing.map((e) => e.id)).toEqual([]);
  });

  it("shows only figures that are committed beside it", () => {
    const images = report.entries.flatMap((e) => (e.figureImages ?? []).map((f) => f.image));
    expect(images.length).toBeGreaterThan(0);
    const absent = images.filter((i) => !existsSync(join(dirname(REPORT_FILE), i)));
    expect(absent).toEqual([]);
  });
});
