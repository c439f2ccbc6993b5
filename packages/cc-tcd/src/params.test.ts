import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULTS, params, paramsInput } from "./params.js";

describe("TCD parameters", () => {
  it("resolves an empty object to the reference defaults, the check period to maxTonUs", () => {
    expect(params.parse({})).toEqual({
      maxTonUs: 40,
      checkPeriodUs: 40,
      growBytes: 900,
      drainedBytes: 2060,
      truncateTonToUs: false,
      ceRule: "red",
      red: { kMinBytes: 5150, kMaxBytes: 206_000, pMax: 0.01 },
      infiniband: { thresholdWeight: 15, thresholdBytes: null, markingRate: 1 },
    });
    expect(params.parse({ maxTonUs: 97 }).checkPeriodUs).toBe(97);
    expect(params.parse({ maxTonUs: 97, checkPeriodUs: 10 }).checkPeriodUs).toBe(10);
  });

  it("fills the rule objects key by key", () => {
    const p = params.parse({ red: { pMax: 1 }, infiniband: { markingRate: 0 } });
    expect(p.red).toEqual({ ...DEFAULTS.red, pMax: 1 });
    expect(p.infiniband).toEqual({ ...DEFAULTS.infiniband, markingRate: 0 });
  });

  it("is idempotent: a resolved set parses to itself", () => {
    const p = params.parse({ ceRule: "infiniband", maxTonUs: 5 });
    expect(params.parse(p)).toEqual(p);
  });

  it("rejects unknown keys, bad units and an inverted RED curve, naming the field", () => {
    const issues = (input: unknown) =>
      params.safeParse(input).error?.issues.map((i) => i.path.join("."));
    expect(issues({ maxTon: 40 })).toEqual([""]);
    expect(issues({ maxTonUs: 0 })).toEqual(["maxTonUs"]);
    expect(issues({ ceRule: "pcn" })).toEqual(["ceRule"]);
    expect(issues({ red: { kMinBytes: 10, kMaxBytes: 5 } })).toEqual(["red.kMinBytes"]);
    expect(issues({ infiniband: { thresholdWeight: 16 } })).toEqual(["infiniband.thresholdWeight"]);
  });

  it("describes every key for `cclab list`", () => {
    type Node = { description?: string; properties?: Record<string, Node> };
    const check = (node: Node, path: string) => {
      for (const [key, field] of Object.entries(node.properties ?? {})) {
        expect(field.description, `${path}${key}`).toBeTruthy();
        check(field, `${path}${key}.`);
      }
    };
    check(z.toJSONSchema(paramsInput, { io: "input" }) as Node, "");
  });
});
