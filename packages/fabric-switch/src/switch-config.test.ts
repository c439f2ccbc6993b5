import { MAX_VLS } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { voqPerOutput } from "./queues/voq-port.js";
import { DEFAULT_SWITCH_CONFIG, queueingPartOf, resolveSwitchConfig } from "./switch-config.js";

describe("resolveSwitchConfig", () => {
  it("fills every default and keeps what is given", () => {
    expect(resolveSwitchConfig({}, "credit")).toEqual(DEFAULT_SWITCH_CONFIG);
    const config = resolveSwitchConfig({ readPorts: 2, switching: "saf" }, "credit");
    expect(config.readPorts).toBe(2);
    expect(config.switching).toBe("saf");
    expect(config.routingLatencyNs).toBe(DEFAULT_SWITCH_CONFIG.routingLatencyNs);
  });

  it("accepts up to MAX_VLS VLs (1024): beyond InfiniBand's 16, VOQnet's lane per destination", () => {
    expect(MAX_VLS).toBe(1024);
    expect(resolveSwitchConfig({ vlCount: 64 }, "credit").vlCount).toBe(64);
    expect(resolveSwitchConfig({ vlCount: MAX_VLS, controlVls: [1023] }, "credit").vlCount).toBe(
      MAX_VLS,
    );
  });

  it("maps queueing names to their parts and passes plug-ins through", () => {
    expect(queueingPartOf(resolveSwitchConfig({}, "credit")).name).toBe("voq-port");
    expect(queueingPartOf(resolveSwitchConfig({ queueing: "1q" }, "credit")).name).toBe("1q");
    const plugin = { ...voqPerOutput, name: "mine" };
    expect(queueingPartOf(resolveSwitchConfig({ queueing: plugin }, "credit"))).toBe(plugin);
  });

  it.each([
    [{ vlCount: 0 }, "credit", /vlCount must be a whole number ≥ 1/],
    [{ vlCount: 1025 }, "credit", /^switch\.vlCount must be in 1\.\.1024 .*, got 1025$/],
    [{ vlCount: 2.5 }, "credit", /vlCount must be a whole number/],
    [{ controlVls: [1] }, "credit", /controlVls: 1 is not a VL in 0..0/],
    [{ switching: "wormhole" }, "credit", /switching must be "vct" or "saf"/],
    [{ routingLatencyNs: -1 }, "credit", /routingLatencyNs must be a number ≥ 0/],
    [{ speedup: 2 }, "credit", /speedup 2 needs output buffers/],
    [{ occupancyBinNs: 0.5 }, "credit", /occupancyBinNs must be a whole number/],
    [
      {
        buffer: {
          model: "shared",
          sharedBytes: 1e6,
          alpha: 1,
          headroomBytes: 0,
          xonOffsetBytes: 0,
        },
      },
      "credit",
      /needs PFC/,
    ],
    [
      { buffer: { model: "partitioned", bytesPerPortVl: 4096 } },
      "pfc",
      /pfc \{xoffBytes, xonBytes\} is required/,
    ],
    [
      {
        buffer: { model: "partitioned", bytesPerPortVl: 4096 },
        pfc: { xoffBytes: 4096, xonBytes: 0 },
      },
      "pfc",
      /xoffBytes \(4096\) must be below/,
    ],
    [
      {
        buffer: { model: "partitioned", bytesPerPortVl: 4096 },
        pfc: { xoffBytes: 100, xonBytes: 200 },
      },
      "pfc",
      /xonBytes \(200\) must be ≤ xoffBytes/,
    ],
    [
      {
        buffer: {
          model: "shared",
          sharedBytes: 1e6,
          alpha: 0,
          headroomBytes: 0,
          xonOffsetBytes: 0,
        },
      },
      "pfc",
      /alpha must be a number > 0/,
    ],
    [{ bufferBytes: 1 }, "credit", /unknown key "bufferBytes"/],
  ] as const)("rejects %j under %s", (partial, discipline, message) => {
    expect(() => resolveSwitchConfig(partial as never, discipline)).toThrow(message);
  });
});
