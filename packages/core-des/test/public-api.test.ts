import * as coreDes from "@cclab/core-des";
import { describe, expect, it } from "vitest";

describe("@cclab/core-des public API", () => {
  it("resolves by package name to the sources (the @cclab/source condition) and exports each part", () => {
    const exported = Object.keys(coreDes).sort();
    expect(exported).toEqual(
      expect.arrayContaining([
        "Counter",
        "Counters",
        "Histogram",
        "RateSeries",
        "RngStream",
        "Scheduler",
        "TimeWeightedAverage",
        "createRng",
        "jainIndex",
        "maxMinFairShare",
        "nearestRank",
        "serializationPs",
      ]),
    );
  });

  it("runs a two-event simulation end to end", () => {
    const s = new coreDes.Scheduler();
    const arrivals: number[] = [];
    const arrive = s.defineKind("arrive", (target) => arrivals.push(target));
    const ser = coreDes.serializationPs(2048, 20);
    s.schedule(ser, arrive, 1);
    s.schedule(2 * ser, arrive, 2);
    s.run();
    expect(arrivals).toEqual([1, 2]);
    expect(coreDes.formatTimePs(s.nowPs)).toBe("1.6384 µs");
  });
});
