import { describe, expect, it } from "vitest";
import { meanChannelUtilisation } from "./channel-utilisation.js";

const CSV = [
  "bin_start_us,device,port,gbps,port_name,peer",
  "0,H0,0,10,H0.p0,S0.p0",
  "0,S0,1,10,S0.p1,H1.p0",
  "20,H0,0,5,H0.p0,S0.p0",
  "20,S0,1,0,S0.p1,H1.p0",
  "40,H0,0,10,H0.p0,S0.p0",
  "40,S0,1,2.5,S0.p1,H1.p0",
].join("\n");

describe("meanChannelUtilisation", () => {
  it("averages Gb/s over channels and the bins from a time, as a fraction of capacity", () => {
    expect(meanChannelUtilisation(CSV, 0, 10)).toBeCloseTo((10 + 10 + 5 + 0 + 10 + 2.5) / 60, 12);
    expect(meanChannelUtilisation(CSV, 20, 10)).toBeCloseTo((5 + 0 + 10 + 2.5) / 40, 12);
  });

  it("refuses a window with no bins and a file without the columns", () => {
    expect(() => meanChannelUtilisation(CSV, 60, 10)).toThrow(/no bin from 60/);
    expect(() => meanChannelUtilisation("a,b\n1,2", 0, 10)).toThrow(/no column "bin_start_us"/);
  });
});
