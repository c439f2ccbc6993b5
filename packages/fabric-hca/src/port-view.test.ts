import { Scheduler } from "@cclab/core-des";
import { InputBuffers, LinkSet, Packets } from "@cclab/fabric";
import { describe, expect, it } from "vitest";
import { HostPortView } from "./port-view.js";

describe("HostPortView", () => {
  it("reads the receive buffer, the uplink's flow state and whether it transmits", () => {
    const links = new LinkSet(new Scheduler(), new Packets(), 2, "pfc");
    const up = links.add(100, 1000);
    const down = links.add(100, 1000);
    const inputs = new InputBuffers({
      portCount: 1,
      vlCount: 2,
      discipline: "pfc",
      links,
      pauseRule: { kind: "static", xoffBytes: 10_000, xonBytes: 5000 },
      startPs: 0,
    });
    inputs.attach(0, down.index);
    let transmitting = false;
    const view = new HostPortView(2, inputs, up.flow, { isTransmitting: () => transmitting });
    inputs.arrive(0, 1, 700, 0);
    expect([view.inputBytes(0), view.inputBytes(1)]).toEqual([0, 700]);
    expect([view.isPaused(1), view.offCount(1), view.lastOnPs(1)]).toEqual([
      false,
      0,
      Number.NEGATIVE_INFINITY,
    ]);
    up.flow.setPaused(1, true, 100);
    up.flow.setPaused(1, false, 250);
    expect([view.isPaused(1), view.offCount(1), view.lastOnPs(1)]).toEqual([false, 1, 250]);
    up.flow.setPaused(0, true, 300);
    expect([view.isPaused(0), view.isBlocked(0), view.credits(0)]).toEqual([true, false, 0]);
    transmitting = true;
    expect(view.isTransmitting()).toBe(true);
    expect(view.vlCount).toBe(2);
  });
});
