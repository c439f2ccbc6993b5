import { readFileSync } from "node:fs";
import * as coreDes from "@cclab/core-des";
import * as traffic from "@cclab/traffic";
import ts from "typescript";
import { expect, it } from "vitest";
import * as zod from "zod";
import { drain, testContext } from "./context.js";

const blocks = [
  ...readFileSync(new URL("../README.md", import.meta.url), "utf8").matchAll(
    /```ts\n([\s\S]*?)```/g,
  ),
].map((m) => m[1]!);

/** Runs a README block as CommonJS; returns what it printed and exported. */
function run(code: string) {
  const js = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const modules: Record<string, unknown> = {
    "@cclab/core-des": coreDes,
    "@cclab/traffic": traffic,
    zod,
  };
  const printed: string[] = [];
  const exports: Record<string, unknown> = {};
  new Function("require", "console", "exports", js)(
    (id: string) => modules[id],
    { log: (...parts: unknown[]) => printed.push(parts.join(" ")) },
    exports,
  );
  return { printed, exports };
}

it("the README's example prints the offered rates of the step onset", () => {
  const { printed } = run(blocks[0]!);
  const gbps = Object.fromEntries(
    printed.map((line) => [line.split(" ")[0], Number(line.split(" ")[1])]),
  );
  expect(Object.keys(gbps)).toEqual(["uniform", "hot", "background"]);
  // Greedy senders: exactly 4 × 100 Gb/s, up to one message each at the end.
  expect(gbps.hot).toBeGreaterThanOrEqual(400);
  expect(gbps.hot).toBeLessThanOrEqual(400 + (4 * 4096 * 8000) / coreDes.usToPs(100));
  // Poisson: N messages of 4 KiB in 100 µs, within 5 standard deviations of the mean.
  for (const [group, mean] of [
    ["uniform", 640],
    ["background", 480],
  ] as const) {
    const n = (mean * coreDes.usToPs(100)) / (4096 * 8000);
    expect(Math.abs(gbps[group]! - mean)).toBeLessThanOrEqual((5 * Math.sqrt(n) * mean) / n);
  }
});

it("the README's own pattern works with the registry", () => {
  const { exports } = run(blocks[1]!);
  const ring = exports.ring as traffic.TrafficPattern;
  const patterns = { ...traffic.TRAFFIC_PATTERNS, ring };
  expect(traffic.trafficEntrySchema(patterns).parse({ pattern: "ring" })).toEqual({
    pattern: "ring",
    bytes: 4096,
  });
  const messages = drain(
    traffic.createTrafficSource({ pattern: "ring" }, testContext({ hostCount: 3 }), patterns),
  );
  expect(messages.map((m) => [m.srcHost, m.dstHost])).toEqual([
    [0, 1],
    [1, 2],
    [2, 0],
  ]);
});
