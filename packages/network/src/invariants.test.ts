import { usToPs } from "@cclab/core-des";
import { singleSwitch } from "@cclab/topologies";
import { describe, expect, it } from "vitest";
import { bufferOverflowViolation, creditConservationViolation } from "./invariants.js";
import { Network } from "./network.js";

// The property tests rely on these checks finding a broken state; here they are shown one.
describe("invariant checks", () => {
  function busy(): Network {
    const net = new Network(singleSwitch({ hosts: 3, rateGbps: 10, latencyNs: 100 }));
    for (const src of [0, 1]) net.addMessage(src, { dstHost: 2, bytes: 200_000, startPs: 0 });
    net.run(usToPs(20));
    return net;
  }

  it("pass on a running fabric with packets and credits in flight", () => {
    const net = busy();
    expect(net.links.links.some((l) => l.blocksInFlight[0]! > 0)).toBe(true);
    expect(creditConservationViolation(net)).toBeUndefined();
    expect(bufferOverflowViolation(net)).toBeUndefined();
  });

  it("report a credit lost on a link, naming the link and the sum", () => {
    const net = busy();
    net.flowState({ kind: "host", index: 0 }).credits[0]! -= 1;
    expect(creditConservationViolation(net)).toMatch(
      /^link 0 \(host H0 → switch S0 port 0\) VL 0 at \d+ ps: held -?\d+ \+ on wire \d+ \+ buffered \d+ \+ returning \d+ = \d+, buffer 512 blocks$/,
    );
  });

  it("report a switch input or host buffer above its size", () => {
    const net = busy();
    net.switches[0]!.inputs.peakBytes[1] = 32 * 1024 + 1;
    expect(bufferOverflowViolation(net)).toBe("switch S0 input 1 VL 0 held 32769 B > 32768 B");
    const other = busy();
    other.hosts[2]!.maxReceiveBytes[0] = 40_000;
    expect(bufferOverflowViolation(other)).toMatch(/host H2 VL 0 held 40000 B > 32768 B/);
  });

  it("report a host's egress FIFO above its size", () => {
    const egressBuffer = { bytes: 8000, xoffBytes: 6000, xonBytes: 3000 };
    const net = new Network(singleSwitch({ hosts: 3 }), { host: { egressBuffer } });
    expect(bufferOverflowViolation(net)).toBeUndefined();
    net.hosts[1]!.egressBuffer!.peakBytes[0] = 8001;
    expect(bufferOverflowViolation(net)).toBe("host H1 egress FIFO VL 0 held 8001 B > 8000 B");
  });
});
