import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { type MaxMinProblem, maxMinFairShare } from "./max-min.js";

const TOL = 1e-9;

describe("maxMinFairShare", () => {
  it("solves the parking lot: the long flow and each short flow get half of every link", () => {
    // Links 0..2 in a chain; flow 0 crosses all, flows 1..3 one link each.
    const { rates, bottlenecks } = maxMinFairShare({
      capacities: [10, 10, 10],
      flows: [{ links: [0, 1, 2] }, { links: [0] }, { links: [1] }, { links: [2] }],
    });
    expect(rates).toEqual([5, 5, 5, 5]);
    expect(bottlenecks[1]).toBe(0);
  });

  it("gives leftover capacity to flows not limited by the bottleneck (Bertsekas & Gallager ex.)", () => {
    // Link 0 (cap 1) shared by flows 0, 1, 2; link 1 (cap 10) by flows 2 and 3.
    const { rates } = maxMinFairShare({
      capacities: [1, 10],
      flows: [{ links: [0] }, { links: [0] }, { links: [0, 1] }, { links: [1] }],
    });
    expect(rates.map((r) => +r.toFixed(12))).toEqual(
      [1 / 3, 1 / 3, 1 / 3, 10 - 1 / 3].map((r) => +r.toFixed(12)),
    );
  });

  it("respects demands (e.g. a host injection cap) and reports them as the bottleneck", () => {
    const { rates, bottlenecks } = maxMinFairShare({
      capacities: [20],
      flows: [{ links: [0], demand: 13.5 }, { links: [0], demand: 2 }, { links: [0] }],
    });
    expect(rates).toEqual([9, 2, 9]);
    expect(bottlenecks).toEqual([0, -1, 0]);
  });

  it("rejects bad input with the field at fault", () => {
    expect(() => maxMinFairShare({ capacities: [-1], flows: [] })).toThrow(/capacities\[0\]/);
    expect(() => maxMinFairShare({ capacities: [1], flows: [{ links: [3] }] })).toThrow(
      /flows\[0\]\.links has 3/,
    );
    expect(() => maxMinFairShare({ capacities: [1], flows: [{ links: [] }] })).toThrow(/unbounded/);
  });

  const problemArb: fc.Arbitrary<MaxMinProblem> = fc.integer({ min: 1, max: 8 }).chain((links) =>
    fc.record({
      capacities: fc.array(
        fc.oneof(fc.constant(0), fc.double({ min: 0.1, max: 400, noNaN: true })),
        {
          minLength: links,
          maxLength: links,
        },
      ),
      flows: fc.array(
        fc.record(
          {
            links: fc.uniqueArray(fc.nat({ max: links - 1 }), { minLength: 1, maxLength: links }),
            demand: fc.double({ min: 0, max: 300, noNaN: true }),
          },
          { requiredKeys: ["links"] },
        ),
        { maxLength: 12 },
      ),
    }),
  );

  test.prop([problemArb], { numRuns: 300 })(
    "is feasible and max-min fair: every flow meets its demand or has a saturated bottleneck where it gets the most",
    (problem) => {
      const { rates, bottlenecks } = maxMinFairShare(problem);
      const load = problem.capacities.map(() => 0);
      problem.flows.forEach((f, i) => {
        expect(rates[i]).toBeGreaterThanOrEqual(0);
        if (f.demand !== undefined) expect(rates[i]).toBeLessThanOrEqual(f.demand * (1 + TOL));
        for (const l of f.links) load[l]! += rates[i]!;
      });
      for (const [l, c] of problem.capacities.entries()) {
        expect(load[l]).toBeLessThanOrEqual(c * (1 + TOL) + TOL);
      }
      problem.flows.forEach((f, i) => {
        const atDemand = f.demand !== undefined && rates[i]! >= f.demand * (1 - TOL);
        const hasBottleneck = f.links.some(
          (l) =>
            load[l]! >= problem.capacities[l]! * (1 - TOL) - TOL &&
            problem.flows.every(
              (g, j) => !g.links.includes(l) || rates[j]! <= rates[i]! * (1 + TOL) + TOL,
            ),
        );
        expect(atDemand || hasBottleneck).toBe(true);
        if (bottlenecks[i]! >= 0) expect(f.links).toContain(bottlenecks[i]);
      });
    },
  );
});
