import { describe, expect, it } from "vitest";
import { RESULT_FILES, resultFiles, simulate } from "../src/index.js";

describe("RESULT_FILES", () => {
  it("lists every file of a run that writes all it can (every series, output buffers, CC, a trace)", async () => {
    const result = await simulate(
      {
        name: "everything",
        topology: { kind: "single-switch", hosts: 4, rateGbps: 10, latencyNs: 100 },
        switch: { outputBufferBytes: 65536, speedup: 2 },
        traffic: [{ pattern: "hotspot", senders: [1, 2, 3], hotspot: 0, rateGbps: 5 }],
        // TCD switches (per-queue samples) with InfiniBand hosts (per-flow samples).
        cc: {
          switch: { plugin: "tcd", params: { ceRule: "infiniband" } },
          hosts: [{ plugin: "infiniband" }],
        },
        run: { durationUs: 100 },
        metrics: {
          binUs: 10,
          series: [
            "flow-throughput",
            "host-throughput",
            "port-occupancy",
            "flow-control",
            "cc",
            "egress-occupancy",
            "cc-queues",
            "link-throughput",
          ],
        },
      },
      { trace: { maxRows: 10 } },
    );
    const names = resultFiles(result).map(([name]) => name);
    // Every series file this run could write is there, so the list is checked against all.
    expect(names.length).toBe(RESULT_FILES.length);
    expect(new Set(names)).toEqual(new Set(RESULT_FILES));
  });
});
