import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { flowEndpoints, flowIdOf } from "./flow-id.js";

test.prop(
  [
    fc
      .record({
        hostCount: fc.integer({ min: 2, max: 5000 }),
        vlCount: fc.integer({ min: 1, max: 16 }),
      })
      .chain(({ hostCount, vlCount }) =>
        fc.record({
          hostCount: fc.constant(hostCount),
          vlCount: fc.constant(vlCount),
          srcHost: fc.nat(hostCount - 1),
          dstHost: fc.nat(hostCount - 1),
          sl: fc.nat(vlCount - 1),
        }),
      ),
  ],
  { numRuns: 300 },
)("flowEndpoints inverts flowIdOf", ({ hostCount, vlCount, srcHost, dstHost, sl }) => {
  const flowId = flowIdOf(srcHost, dstHost, sl, hostCount, vlCount);
  expect(flowEndpoints(flowId, hostCount, vlCount)).toEqual({ srcHost, dstHost, sl });
  expect(flowId).toBeLessThan(hostCount * hostCount * vlCount);
});
