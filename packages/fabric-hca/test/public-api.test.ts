import * as hca from "@cclab/fabric-hca";
import { expect, it } from "vitest";

it("resolves @cclab/fabric-hca to its sources and validates host parameters", () => {
  expect(hca.resolveHcaConfig({})).toEqual(hca.DEFAULT_HCA_CONFIG);
  expect(typeof hca.Hca).toBe("function");
  expect(() => hca.resolveHcaConfig({ mtuBytes: 4096, receiveBufferBytes: 2048 })).toThrow(
    /receiveBufferBytes \(2048\) must hold one full packet/,
  );
  expect(() => hca.resolveHcaConfig({ receiveRateGbps: 0 })).toThrow(
    /receiveRateGbps must be a rate > 0/,
  );
});

it("exports the host, its event registration and the flow ids", () => {
  expect(typeof hca.registerHcaEvents).toBe("function");
  expect(hca.flowEndpoints(hca.flowIdOf(3, 1, 2, 4, 3), 4, 3)).toEqual({
    srcHost: 3,
    dstHost: 1,
    sl: 2,
  });
});
