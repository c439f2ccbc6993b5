import * as sw from "@cclab/fabric-switch";
import { expect, it } from "vitest";

it("resolves @cclab/fabric-switch to its sources and exports the switch and its queueing schemes", () => {
  expect(Object.keys(sw.QUEUEING_SCHEMES).sort()).toEqual(["1q", "voq-dest", "voq-port"]);
  const config = sw.resolveSwitchConfig({}, "credit");
  expect(config).toEqual(sw.DEFAULT_SWITCH_CONFIG);
  expect(typeof sw.Switch).toBe("function");
  expect(() => sw.resolveSwitchConfig({ speedup: 2 }, "credit")).toThrow(
    /speedup 2 needs output buffers/,
  );
});
