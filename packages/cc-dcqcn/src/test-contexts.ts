import { createRng, Scheduler } from "@cclab/core-des";
import { type HostPartContext, Packets, type PortView } from "@cclab/fabric";

/** A port with nothing buffered, no credits and nothing paused, for part tests. */
export const idlePort: PortView = {
  vlCount: 2,
  inputBytes: () => 0,
  credits: () => 0,
  isPaused: () => false,
  isTransmitting: () => false,
  isBlocked: () => false,
};

const refuse = (what: string) => () => {
  throw new Error(`this test's part should not ${what}`);
};

/**
 * A host context for testing one part on its own: host `hostIndex` of 8, a fresh scheduler and
 * packet store, an idle 100 Gb/s uplink, control VL 1; sending control packets, resending and
 * re-asking gates throw unless `overrides` gives them.
 */
export function testHostContext(
  overrides: Partial<HostPartContext> & { hostIndex?: number } = {},
): HostPartContext {
  const hostIndex = overrides.hostIndex ?? 0;
  return {
    scheduler: new Scheduler(),
    packets: new Packets(),
    controlVls: [1],
    rng: createRng(1).split(`host/${hostIndex}/cc`),
    hostIndex,
    hostCount: 8,
    port: idlePort,
    uplinkRateGbps: 100,
    controlPacketBytes: 64,
    sendControl: refuse("send control packets"),
    gatesChanged: refuse("re-ask the host's gates"),
    resend: refuse("resend packets"),
    ...overrides,
  };
}
