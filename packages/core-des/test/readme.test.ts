import { readFileSync } from "node:fs";
import * as coreDes from "@cclab/core-des";
import { transformSync } from "esbuild";
import { expect, it } from "vitest";

it("the README's example runs and prints a 1000-sample latency summary", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toBeDefined();
  const js = transformSync(example!, { loader: "ts", format: "cjs" }).code;
  const printed: unknown[] = [];
  const run = new Function("require", "console", js);
  run(
    (id: string) => {
      expect(id).toBe("@cclab/core-des");
      return coreDes;
    },
    { log: (x: unknown) => printed.push(x) },
  );
  const summary = printed[0] as coreDes.HistogramSummary;
  expect(summary.count).toBe(1000);
  // Latency = serialization of 64..4096 bytes at 100 Gb/s + 100 ns of propagation.
  expect(summary.min).toBeGreaterThanOrEqual(coreDes.serializationPs(64, 100) + 100_000);
  expect(summary.max).toBeLessThanOrEqual(coreDes.serializationPs(4096, 100) + 100_000);
});
