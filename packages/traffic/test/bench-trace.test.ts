/**
 * Replays the uniform256 benchmark workload (`scenarios/bench/uniform256-flows.csv`): 15,980
 * flows of 100,000 B on 256 hosts, Poisson arrivals at 50 % of 100 Gb/s over the first 1 ms.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { trace } from "../src/index.js";
import { drain, shapeViolation, testContext } from "./context.js";

const path = fileURLToPath(
  new URL("../../../scenarios/bench/uniform256-flows.csv", import.meta.url),
);

describe("trace replay of the uniform256 benchmark workload", () => {
  it("gives its 15,980 valid flows in time order at the stated load", () => {
    const ctx = testContext({
      hostCount: 256,
      files: { "uniform256-flows.csv": readFileSync(path, "utf8") },
    });
    const messages = drain(trace.create(trace.params.parse({ path: "uniform256-flows.csv" }), ctx));
    expect(messages).toHaveLength(15_980);
    expect(shapeViolation(messages, 256)).toBeUndefined();
    expect(messages.every((m) => m.bytes === 100_000)).toBe(true);
    expect(messages.at(-1)!.startPs).toBeLessThan(1e9);
    // Poisson arrivals at 50 % of 100 Gb/s for 1 ms on 256 hosts: N ~ Poisson(16,000)
    // flows of 100,000 B; the file's count is within 5 standard deviations (√16,000 ≈ 126).
    const expected = (256 * 0.5 * 100 * 1e9) / (100_000 * 8000);
    expect(Math.abs(messages.length - expected)).toBeLessThanOrEqual(5 * Math.sqrt(expected));
    expect(new Set(messages.map((m) => m.srcHost)).size).toBe(256);
  });
});
