import { expect, it } from "vitest";
import { idlePort, testHostContext, testSwitchContext } from "./testing.js";

it("a test host context refuses the services a test did not give, and takes overrides", () => {
  const context = testHostContext();
  expect([context.hostIndex, context.hostCount, context.uplinkRateGbps]).toEqual([0, 8, 100]);
  expect(context.controlVls).toEqual([]);
  expect(() => context.sendControl(0)).toThrow(/should not send control packets/);
  expect(() => context.gatesChanged()).toThrow(/should not re-ask/);
  const sent: number[] = [];
  const custom = testHostContext({
    hostIndex: 3,
    controlVls: [1],
    port: idlePort(2),
    sendControl: (p) => sent.push(p),
  });
  custom.sendControl(custom.packets.create({ kind: "cnp" }));
  expect(sent).toHaveLength(1);
  expect([custom.hostIndex, custom.port.vlCount, custom.port.credits(1)]).toEqual([3, 2, 0]);
  // Each context has its own scheduler and packet store.
  expect(custom.scheduler).not.toBe(context.scheduler);
  expect(custom.packets).not.toBe(context.packets);
});

it("a test switch context refuses sending and waking unless the test gives them", () => {
  const context = testSwitchContext();
  expect([context.switchIndex, context.portCount, context.port(0).lastOnPs(0)]).toEqual([
    0,
    4,
    Number.NEGATIVE_INFINITY,
  ]);
  expect(() => context.sendControl(0)).toThrow(/should not send control packets/);
  expect(() => context.sendOnPort(1, 0)).toThrow(/should not send link-local packets/);
  expect(() => context.wake(1)).toThrow(/should not wake an output/);
  const woken: number[] = [];
  testSwitchContext({ wake: (out) => woken.push(out) }).wake(2);
  expect(woken).toEqual([2]);
});
