import { describe, expect, it } from "vitest";
import { DEFAULTS, params } from "./params.js";

describe("SRP parameters", () => {
  it("default to Table 1 and 64-bit control packets", () => {
    expect(params.parse({})).toEqual({
      epsilon: 0.05,
      ttwUs: 1.3,
      nMaxPackets: 16,
      nMinPackets: 4,
      controlPacketBytes: 8,
      fifoLanes: true,
      inOrder: false,
      dropCheck: "at-head",
    });
    expect(DEFAULTS.ttwUs).toBe(1.3);
  });

  it("reject unknown keys, a negative time and n_min above n_max, naming the field", () => {
    const r = params.safeParse({ ttw: 1, ttwUs: -1 });
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join("."));
    expect(paths).toContain("ttwUs");
    expect(r.error!.issues.some((i) => i.code === "unrecognized_keys")).toBe(true);
    const order = params.safeParse({ nMinPackets: 8, nMaxPackets: 4 });
    expect(order.success).toBe(false);
    expect(order.error!.issues[0]!.path).toEqual(["nMinPackets"]);
  });
});
