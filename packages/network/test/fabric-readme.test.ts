import { readFileSync } from "node:fs";
import * as fabric from "@cclab/fabric";
import { singleSwitch } from "@cclab/topologies";
import { transformSync } from "esbuild";
import { expect, it } from "vitest";
import { Network } from "../src/index.js";

it("the @cclab/fabric README's scheme runs: FECN marks at a loaded switch come back as CNPs", () => {
  const readme = readFileSync(new URL("../../fabric/README.md", import.meta.url), "utf8");
  const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toBeDefined();
  const js = transformSync(example!, { loader: "ts", format: "cjs" }).code;
  const module = { exports: {} as { cnpOnFecn?: fabric.CcScheme } };
  new Function("require", "module", "exports", js)(
    (id: string) => (id === "@cclab/fabric" ? fabric : undefined),
    module,
    module.exports,
  );
  const net = new Network(singleSwitch({ hosts: 4, rateGbps: 10, latencyNs: 10 }), {
    cc: module.exports.cnpOnFecn!,
  });
  for (const src of [0, 1, 2]) net.addMessage(src, { dstHost: 3, bytes: 200_000, startPs: 0 });
  let cnps = 0;
  net.onDelivery((p) => {
    if (net.packets.kind(p) === "cnp") cnps++;
  });
  net.run();
  expect(net.hosts[3]!.completions).toHaveLength(3);
  expect(cnps).toBeGreaterThan(10);
});
