import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../../../../packages/sim/test/scratch-dir.js";
import { writeRunDir } from "../../test/fixtures.js";
import { SafeDir } from "./safe-path.js";
import { readSeriesSets } from "./series.js";

describe("readSeriesSets", () => {
  const dir = new SafeDir(writeRunDir(join(scratchDir("cclab-series-"), "run")));
  const sets = readSeriesSets((f) => dir.readText(f), {
    state: { "0": "NC", "3": "C" },
  });
  const set = (name: string) => sets.find((s) => s.info.name === name)!;

  it("makes a set per figure the run recorded, CC variables each their own", () => {
    expect(sets.map((s) => s.info.name)).toEqual([
      "flow-throughput",
      "group-throughput",
      "port-occupancy",
      "flow-control",
      "link-throughput",
      "cc-ccti",
      "cc-rateGbps",
      "cc-queues-state",
    ]);
  });

  it("aligns lines on the bins; a binned figure is 0 where a line has no row, a state a gap", () => {
    const flows = set("flow-throughput");
    expect(flows.data.x).toEqual([0, 100, 200]);
    // Ranked by mean: the hot flow (8, 0, 7) before the victim (4, 6, 0).
    expect(flows.info.lines.map((l) => l.label)).toEqual(["H2→H1 #1", "H0→H1 #0"]);
    expect(flows.data.lines[0]!.y).toEqual([8, 0, 7]);
    expect(set("cc-ccti").data.lines[0]!.y).toEqual([0, 3]);
    expect(set("cc-ccti").info.stepped).toBe(true);
  });

  it("derives group means, scales units, and carries value labels", () => {
    const groups = set("group-throughput");
    expect(groups.info.lines.map((l) => l.key).sort()).toEqual(["hot", "victim"]);
    expect(set("port-occupancy").data.lines[0]!.y).toEqual([1, 2]); // KiB
    expect(set("flow-control").data.lines[0]!.y).toEqual([50, 25]); // % of bin
    const links = set("link-throughput");
    expect(links.info.lines.map((l) => l.label)).toEqual(["S0.p1 → H1", "H0.p0 → S0.p0"]);
    expect(links.data.lines[0]!.y).toEqual([10, 20]); // Gb/s
    expect(set("cc-queues-state").info.valueLabels).toEqual({ "0": "NC", "3": "C" });
  });
});
