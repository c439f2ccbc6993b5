import { Scheduler } from "@cclab/core-des";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { creditBlocks } from "./flow-control.js";
import { InputBuffers, type PauseRule } from "./input-buffer.js";
import { LinkSet } from "./link.js";
import { Packets } from "./packet.js";

/** Two ports with two VLs, each fed by its own link of 100 Gb/s and 10 ns. */
function setup(discipline: "credit" | "pfc", pauseRule?: PauseRule) {
  const scheduler = new Scheduler();
  const links = new LinkSet(scheduler, new Packets(), 2, discipline);
  const upstream = [links.add(100, 10_000), links.add(100, 10_000)];
  const changed: number[] = [];
  for (const [port, link] of upstream.entries()) {
    link.connect(
      { flowControlChanged: () => changed.push(port) },
      0,
      { receivePacket: () => {} },
      port,
      { cutThroughBytes: Number.POSITIVE_INFINITY, processingPs: 0 },
    );
  }
  const inputs = new InputBuffers({
    portCount: 2,
    vlCount: 2,
    discipline,
    links,
    ...(pauseRule === undefined ? {} : { pauseRule }),
    startPs: 0,
  });
  for (const [port, link] of upstream.entries()) inputs.attach(port, link.index);
  return { scheduler, links, upstream, inputs };
}

describe("InputBuffers", () => {
  test.prop(
    [
      fc.array(
        fc.record({
          port: fc.nat(1),
          vl: fc.nat(1),
          size: fc.integer({ min: 1, max: 4200 }),
          gapPs: fc.nat(5000),
        }),
        {
          maxLength: 60,
        },
      ),
      fc.array(fc.boolean(), { maxLength: 60 }),
    ],
    { numRuns: 100 },
  )(
    "returns every credit block a packet took once it leaves (credit conservation)",
    (arrivals, leaveOrder) => {
      const { scheduler, links, upstream, inputs } = setup("credit");
      const held: { port: number; vl: number; size: number }[] = [];
      let taken = 0;
      for (const [k, a] of arrivals.entries()) {
        scheduler.run({ untilPs: scheduler.nowPs + a.gapPs });
        inputs.arrive(a.port, a.vl, a.size, scheduler.nowPs);
        taken += creditBlocks(a.size);
        held.push(a);
        if (leaveOrder[k] === true) {
          const p = held.shift()!;
          inputs.leave(p.port, p.vl, p.size, scheduler.nowPs);
        }
        let buffered = 0;
        let returning = 0;
        for (let port = 0; port < 2; port++) {
          for (let vl = 0; vl < 2; vl++) {
            buffered += inputs.blocks(port, vl);
            returning +=
              upstream[port]!.creditsReturning[vl]! +
              links.flow.credits[upstream[port]!.index * 2 + vl]!;
          }
        }
        // Every block taken is buffered, on its way back, or back at the sender.
        expect(buffered + returning).toBe(taken);
      }
      for (const p of held) inputs.leave(p.port, p.vl, p.size, scheduler.nowPs);
      scheduler.run();
      for (let port = 0; port < 2; port++)
        for (let vl = 0; vl < 2; vl++) expect(inputs.blocks(port, vl)).toBe(0);
    },
  );

  it("pauses the upstream above XOFF once, and resumes at XON (static thresholds)", () => {
    const { scheduler, links, upstream, inputs } = setup("pfc", {
      kind: "static",
      xoffBytes: 3000,
      xonBytes: 1000,
    });
    for (let k = 0; k < 4; k++) inputs.arrive(0, 1, 1000, 0); // 4000 B > 3000 B: pause at the 4th
    expect(inputs.pausedUpstream(0, 1)).toBe(true);
    expect(links.pauseFramesSent[upstream[0]!.index]).toBe(1);
    inputs.leave(0, 1, 1000, 10);
    inputs.leave(0, 1, 1000, 20); // 2000 B: still above XON
    expect(inputs.pausedUpstream(0, 1)).toBe(true);
    inputs.leave(0, 1, 1000, 30); // 1000 B ≤ XON: resume
    expect(inputs.pausedUpstream(0, 1)).toBe(false);
    expect(links.resumeFramesSent[upstream[0]!.index]).toBe(1);
    scheduler.run();
    expect(upstream[0]!.flow.isPaused(1)).toBe(false);
    expect(upstream[0]!.flow.offCount(1)).toBe(1);
  });

  it("uses alpha × free shared memory as the XOFF threshold (dynamic thresholds)", () => {
    const { inputs } = setup("pfc", {
      kind: "dynamic",
      alpha: 1,
      sharedBytes: 10_000,
      xonOffsetBytes: 500,
    });
    inputs.arrive(1, 0, 4000, 0); // threshold 1 × (10000 − 4000) = 6000: below
    expect(inputs.pausedUpstream(1, 0)).toBe(false);
    inputs.arrive(0, 0, 3500, 0); // queue (0,0) holds 3500 > 1 × (10000 − 7500): pause
    expect(inputs.pausedUpstream(0, 0)).toBe(true);
    expect(inputs.pausedUpstream(1, 0)).toBe(false); // 4000 > 2500 too, but only arrivals check
    inputs.leave(1, 0, 4000, 5); // XON 1 × (10000 − 3500) − 500 = 6000 ≥ 3500: (0,0) resumes
    expect(inputs.pausedUpstream(0, 0)).toBe(false);
    expect(inputs.maxTotalBytes).toBe(7500);
  });

  it("keeps the time-weighted mean and the peak of each queue", () => {
    const { inputs } = setup("credit");
    inputs.arrive(0, 0, 1000, 0);
    inputs.leave(0, 0, 1000, 300);
    expect(inputs.meanBytes(0, 0, 1000)).toBeCloseTo(300, 9);
    expect(inputs.maxBytes(0, 0)).toBe(1000);
    expect(inputs.peakBytes[0]).toBe(1000);
    expect(inputs.bytes(0, 0)).toBe(0);
  });
});
