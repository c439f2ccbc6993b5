/**
 * Contract 3.0, the ON/OFF history of a port (what TCD needs, seed 004_abc94112a2f36164.txt):
 * a detector reads, at each packet a port sends, when the port last went from OFF to ON and how
 * many OFF periods it has had. A slow receiver makes the switch port toward it go OFF: by PFC
 * pauses, or by running out of credits.
 */
import type { TimePs } from "@cclab/core-des";
import type { CcScheme, FlowControlDiscipline } from "@cclab/fabric";
import { singleSwitch } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { Network } from "../../src/index.js";

interface Seen {
  atPs: TimePs;
  lastOnPs: TimePs;
  offCount: number;
  paused: boolean;
}

function run(flowControl: FlowControlDiscipline) {
  const seen: Seen[] = [];
  const detector: CcScheme = {
    specVersion: "^3.0.0",
    name: "toy-on-off",
    switchPart: {
      specVersion: "^3.0.0",
      name: "on-off-detector",
      create: (sw) => ({
        onTransmit: (_p, _in, out) => {
          if (out !== 2) return;
          const port = sw.port(2);
          seen.push({
            atPs: sw.scheduler.nowPs,
            lastOnPs: port.lastOnPs(0),
            offCount: port.offCount(0),
            paused: port.isPaused(0),
          });
        },
      }),
    },
  };
  const net = new Network(singleSwitch({ hosts: 3, rateGbps: 10, latencyNs: 50 }), {
    cc: detector,
    flowControl,
    host: { receiveRateGbps: 2, receiveBufferBytes: 16 * 1024 },
    ...(flowControl === "pfc"
      ? {
          switch: { pfc: { xoffBytes: 16 * 1024, xonBytes: 8 * 1024 } },
          hostPfc: { xoffBytes: 6 * 1024, xonBytes: 2 * 1024 },
        }
      : {}),
  });
  for (const src of [0, 1]) net.addMessage(src, { dstHost: 2, bytes: 100_000, startPs: 0 });
  net.run();
  expect(net.hosts[2]!.completions).toHaveLength(2);
  const toHost2 = net.linkEnds.findIndex(
    (e) => e.from.kind === "switch" && e.to.kind === "host" && e.to.index === 2,
  );
  return { seen, net, toHost2 };
}

describe("a detector reading the last OFF→ON time of a port", () => {
  it("on a PFC port: one OFF period per pause that took effect, ON at each resume", () => {
    const { seen, net, toHost2 } = run("pfc");
    const pauses = net.links.pauseFramesSent[toHost2]!;
    expect(pauses).toBeGreaterThan(2);
    expect(net.switches[0]!.portView(2).offCount(0)).toBe(pauses);
    for (const [k, s] of seen.entries()) {
      expect(s.paused).toBe(false); // a paused port sends nothing
      expect(s.lastOnPs).toBeLessThanOrEqual(s.atPs);
      const before = seen[k - 1];
      // A pause between two packets shows as a later resume, after the previous packet left.
      if (before !== undefined && s.offCount > before.offCount) {
        expect(s.lastOnPs).toBeGreaterThan(before.atPs);
      }
      if (before !== undefined && s.offCount === before.offCount) {
        expect(s.lastOnPs).toBe(before.lastOnPs);
      }
    }
    expect(seen.at(-1)!.lastOnPs).toBeGreaterThan(0);
  });

  it("on a credit port: one OFF period per starvation, ON when a packet starts again", () => {
    const { seen, net, toHost2 } = run("credit");
    const starvations = net.links.flow.offTransitions[toHost2 * net.switchConfig.vlCount]!;
    expect(starvations).toBeGreaterThan(2);
    expect(net.switches[0]!.portView(2).offCount(0)).toBe(starvations);
    let restarts = 0;
    for (const [k, s] of seen.entries()) {
      const before = seen[k - 1];
      if (before !== undefined && s.offCount > before.offCount) {
        // The packet that ends a starvation is the ON instant the detector sees.
        expect(s.lastOnPs).toBe(s.atPs);
        restarts++;
      }
    }
    expect(restarts).toBeGreaterThan(2);
  });
});
