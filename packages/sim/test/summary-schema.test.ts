import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { summaryJsonSchema } from "../src/index.js";

describe("schema/summary.schema.json", () => {
  it("is the JSON Schema of the summary as the code defines it (npm run schema -w @cclab/sim)", () => {
    const shipped = JSON.parse(
      readFileSync(new URL("../schema/summary.schema.json", import.meta.url), "utf8"),
    );
    expect(shipped).toEqual(summaryJsonSchema());
  });
});
