import { describe, expect, it } from "vitest";
import { checkRouting } from "../routing/check-routing.js";
import { wiringOf } from "../wiring.js";
import { foldedClos648 } from "./folded-clos-648.js";

describe("foldedClos648 (Gran Paper IV, 001 line 1704)", () => {
  const { fabric, routing } = foldedClos648();

  it("has 648 hosts on 36 leaves of 18, and 18 spines: 54 fully cabled 36-port switches", () => {
    expect(fabric.hosts).toHaveLength(648);
    expect(fabric.switches).toHaveLength(54);
    expect(fabric.switches.filter((s) => s.level === 0)).toHaveLength(36);
    expect(fabric.switches.filter((s) => s.level === 1)).toHaveLength(18);
    expect(fabric.switches.every((s) => s.portCount === 36)).toBe(true);
    const w = wiringOf(fabric);
    expect(w.switchPorts.every((ports) => ports.every((p) => p !== undefined))).toBe(true);
    expect(fabric.cables).toHaveLength(648 + 36 * 18);
  });

  it("uses 4x DDR data rate, D-mod-k by default, and routes every pair", () => {
    expect(fabric.cables[0]).toMatchObject({ rateGbps: 16, latencyNs: 5 });
    expect(routing.name).toBe("d-mod-k");
    expect(checkRouting(fabric, routing).maxHops).toBe(3);
    expect(foldedClos648({ routing: "ecmp", rateGbps: 20 }).fabric.cables[0]!.rateGbps).toBe(20);
    expect(() => foldedClos648({ leaves: 2 } as object)).toThrow(
      /foldedClos648: unknown option "leaves"/,
    );
  });
});
