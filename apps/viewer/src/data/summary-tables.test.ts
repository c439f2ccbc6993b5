import { expect, it } from "vitest";
import { summaryFacts, summaryTables } from "./summary-tables.js";

it("shows a figure summary.json leaves null (Jain's index of a group) as '-'", () => {
  const [groups] = summaryTables({
    groups: [
      {
        name: "idle",
        flows: 0,
        deliveredBytes: 0,
        meanGbps: 0,
        minGbps: 0,
        maxGbps: 0,
        jainIndex: null,
      },
      {
        name: "busy",
        flows: 2,
        deliveredBytes: 9e6,
        meanGbps: 4.5,
        minGbps: 4,
        maxGbps: 5,
        jainIndex: 0.98765,
      },
    ],
  });
  expect(groups!.rows).toEqual([
    ["idle", 0, 0, 0, 0, "-"],
    ["busy", 2, 4.5, 4, 5, 0.9877],
  ]);
});

it("reads an older summary without the fields it lacks", () => {
  expect(summaryTables({})).toEqual([]);
  expect(summaryFacts({ scenario: "s", seed: 2 })[0]).toEqual(["scenario", "s  seed 2  status ?"]);
});
