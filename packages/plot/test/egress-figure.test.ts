import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../../sim/test/scratch-dir.js";
import { RUN_FIGURES, runFigures } from "../src/index.js";

describe("the egress-occupancy figure", () => {
  it("draws egress-occupancy.csv's mean per bin in KiB, one line per output port and VL", () => {
    const dir = scratchDir("cclab-plot-egress-");
    writeFileSync(join(dir, "summary.json"), JSON.stringify({ scenario: "made-up", flows: [] }));
    writeFileSync(
      join(dir, "egress-occupancy.csv"),
      [
        "bin_start_us,switch,port,vl,mean_egress_bytes,max_egress_bytes,port_name,peer",
        "0,S1,2,0,2048,4096,S1.p2,H3",
        "10,S1,2,0,4096,8192,S1.p2,H3",
        "",
      ].join("\n"),
    );
    expect(RUN_FIGURES).toContain("egress-occupancy");
    const figures = runFigures(dir);
    expect(figures.map((f) => f.name)).toEqual(["egress-occupancy"]);
    const spec = JSON.stringify(figures[0]!.spec);
    for (const text of ["egress queue occupancy", "(KiB)", "S1.p2 → H3 VL 0"]) {
      expect(spec).toContain(text);
    }
    expect(spec).toContain('"y":4');
  });
});
