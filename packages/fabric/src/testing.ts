/**
 * Test contexts for CC parts (`@cclab/fabric/testing`): a part's unit tests build one of these
 * instead of a whole network, and override what the test is about (a `sendControl` that records,
 * a `gatesChanged` that counts). Not for simulations: the contexts are not wired to any device.
 */
import { createRng, Scheduler } from "@cclab/core-des";
import type { HostPartContext, PortView, SwitchPartContext } from "./cc.js";
import { Packets } from "./packet.js";

/** A port with `vlCount` VLs, nothing buffered, no credits, nothing paused or transmitting. */
export function idlePort(vlCount = 1): PortView {
  return {
    vlCount,
    inputBytes: () => 0,
    credits: () => 0,
    isPaused: () => false,
    isTransmitting: () => false,
    isBlocked: () => false,
    lastOnPs: () => Number.NEGATIVE_INFINITY,
    offCount: () => 0,
  };
}

const refuse = (what: string) => () => {
  throw new Error(`this test's part should not ${what}`);
};

/**
 * A host context for testing one part on its own: host `hostIndex` (default 0) of 8, a fresh
 * scheduler and packet store, an idle 100 Gb/s uplink with one VL and no control VL, a 2048-byte
 * MTU with 26-byte headers, 64-byte control packets; sending control packets, resending and
 * re-asking gates throw unless `overrides` gives them.
 */
export function testHostContext(
  overrides: Partial<HostPartContext> & { hostIndex?: number } = {},
): HostPartContext {
  const hostIndex = overrides.hostIndex ?? 0;
  return {
    scheduler: new Scheduler(),
    packets: new Packets(),
    controlVls: [],
    lanes: {},
    lowPriorityVls: [],
    rng: createRng(1).split(`host/${hostIndex}/cc`),
    hostIndex,
    hostCount: 8,
    port: idlePort(),
    uplinkRateGbps: 100,
    controlPacketBytes: 64,
    mtuBytes: 2048,
    dataHeaderBytes: 26,
    sendControl: refuse("send control packets"),
    gatesChanged: refuse("re-ask the host's gates"),
    resend: refuse("resend packets"),
    setFlowVl: refuse("move a flow to another VL"),
    sendLinkControl: refuse("send link-local control packets"),
    ...overrides,
  };
}

/**
 * A switch context for testing one part on its own: switch `switchIndex` (default 0) with
 * `portCount` (default 4) idle ports of one VL, a fresh scheduler and packet store, 32 KiB input
 * buffers, no control or low-priority lanes, no port facing a host; sending control packets,
 * sending on a port and waking an output throw unless `overrides` gives them.
 */
export function testSwitchContext(
  overrides: Partial<SwitchPartContext> & { switchIndex?: number } = {},
): SwitchPartContext {
  const switchIndex = overrides.switchIndex ?? 0;
  return {
    scheduler: new Scheduler(),
    packets: new Packets(),
    controlVls: [],
    lanes: {},
    lowPriorityVls: [],
    rng: createRng(1).split(`switch/${switchIndex}/cc`),
    switchIndex,
    portCount: 4,
    port: () => idlePort(),
    inputBufferBytes: () => 32 * 1024,
    facesHost: () => false,
    sendControl: refuse("send control packets"),
    sendOnPort: refuse("send link-local packets"),
    wake: refuse("wake an output"),
    ...overrides,
  };
}
