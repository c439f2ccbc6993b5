import { readFileSync } from "node:fs";
import * as coreDes from "@cclab/core-des";
import * as network from "@cclab/network";
import * as topologies from "@cclab/topologies";
import { transformSync } from "esbuild";
import { expect, it } from "vitest";

it("the README's example runs and prints the parking lot's final shares", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toBeDefined();
  const js = transformSync(example!, { loader: "ts", format: "cjs" }).code;
  const modules: Record<string, unknown> = {
    "@cclab/core-des": coreDes,
    "@cclab/network": network,
    "@cclab/topologies": topologies,
  };
  const printed: string[] = [];
  new Function("require", "console", js)((id: string) => modules[id], {
    log: (...parts: unknown[]) => printed.push(parts.join(" ")),
  });
  const rates = printed.map((line) => Number(line.split(" ")[1]));
  expect(rates).toHaveLength(5);
  // F1, F2, F3 ≈ 1/6 and F4, F5 ≈ 1/3 of the H5 link (13 Gb/s of PCIe, payload share), each
  // within ±5 % (1/6 and 1/5 of it differ by 20 %).
  const h5 = 13 * (2048 / 2074);
  for (const r of rates.slice(0, 3)) expect(Math.abs(r / (h5 / 6) - 1)).toBeLessThan(0.05);
  for (const r of rates.slice(3)) expect(Math.abs(r / (h5 / 3) - 1)).toBeLessThan(0.05);
});
