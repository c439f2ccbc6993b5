/**
 * An outcome's own figures (ExperimentOutcome.figures): the report renders each saved spec to a
 * PNG under `reproductions/<id>/` beside the report and links it after the experiment's tables,
 * also when it only rebuilds the report from saved outcomes (`--report`).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reproduce } from "../src/reproduce.js";

const dir = mkdtempSync(join(tmpdir(), "cclab-report-figures-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("report figures", () => {
  it("renders a saved outcome's figure to a PNG and links it in the report", async () => {
    const saved = join(dir, "outcomes");
    const outcome = {
      findings: [{ what: "w", paper: "p", ours: "o", deviation: "d", holds: true, tolerance: "t" }],
      tables: ["| a |\n|---|\n| 1 |"],
      figures: [
        {
          name: "bars",
          spec: {
            title: "Two bars",
            data: {
              values: [
                { k: "x", v: 1 },
                { k: "y", v: 3 },
              ],
            },
            mark: "bar",
            encoding: {
              x: { field: "k", type: "nominal" },
              y: { field: "v", type: "quantitative" },
            },
          },
        },
      ],
    };
    mkdirSync(saved, { recursive: true });
    writeFileSync(
      join(saved, "tcd-fct.json"),
      JSON.stringify({ outcome, wallSeconds: 1, date: "2026-11-27", quick: false }),
    );
    await reproduce({
      reportOnly: true,
      reportFile: join(dir, "report.md"),
      savedDir: saved,
      command: "test",
    });
    const png = join(dir, "reproductions", "tcd-fct", "bars.png");
    expect(existsSync(png)).toBe(true);
    // A PNG, and not a blank one: bigger than the few hundred bytes of an empty canvas.
    const bytes = readFileSync(png);
    expect(bytes.subarray(1, 4).toString()).toBe("PNG");
    expect(bytes.length).toBeGreaterThan(2000);
    const report = readFileSync(join(dir, "report.md"), "utf8");
    const section = report.slice(report.indexOf('<a id="tcd-fct"></a>'));
    expect(section.indexOf("![Two bars](reproductions/tcd-fct/bars.png)")).toBeGreaterThan(
      section.indexOf("| 1 |"),
    );
  });

  it("refuses a saved figure whose name would leave the report's folder", async () => {
    const saved = join(dir, "outcomes-bad");
    mkdirSync(saved, { recursive: true });
    const outcome = {
      findings: [],
      figures: [{ name: "../escape", spec: { mark: "bar", data: { values: [] } } }],
    };
    writeFileSync(
      join(saved, "tcd-fct.json"),
      JSON.stringify({ outcome, wallSeconds: 1, date: "2026-11-27", quick: false }),
    );
    await expect(
      reproduce({
        reportOnly: true,
        reportFile: join(dir, "bad", "report.md"),
        savedDir: saved,
        command: "test",
      }),
    ).rejects.toThrow(/figure name "..\/escape"/);
    expect(existsSync(join(dir, "bad", "escape.png"))).toBe(false);
  });
});
