import type { RngStream } from "@cclab/core-des";
import type { CcScheme, HostPartContext, SwitchPartContext } from "@cclab/fabric";
import type { InstalledSwitchPart } from "@cclab/fabric-switch";
import { wiringOf } from "@cclab/topologies";
import type { CcPlan } from "./cc-plan.js";
import type { Network } from "./network.js";

/**
 * Makes the CC parts of a planned network and installs them: each switch's switch parts in
 * their order (the first one's random stream is named as a single part's always was), and each
 * host's sender and receiver parts (its own scheme, else `cc`'s).
 */
export function installCc(
  net: Network,
  plan: CcPlan,
  cc: CcScheme | undefined,
  hostCc: readonly (CcScheme | undefined)[],
  rng: RngStream,
): void {
  const { scheduler, packets, switchConfig } = net;
  const controlVls = switchConfig.controlVls;
  const lowPriorityVls = switchConfig.lowPriorityVls;
  if (plan.switchParts.length > 0) {
    const buffer = switchConfig.buffer;
    const bufferBytes = buffer.model === "partitioned" ? buffer.bytesPerPortVl : buffer.sharedBytes;
    const { switchPorts } = wiringOf(net.topology.fabric);
    for (const sw of net.switches) {
      const installed: InstalledSwitchPart[] = [];
      for (const planned of plan.switchParts) {
        if (planned.switches !== "all" && !planned.switches.includes(sw.index)) continue;
        const context: SwitchPartContext = {
          scheduler,
          packets,
          controlVls,
          lanes: plan.lanes.lanesOf(planned.declaring),
          lowPriorityVls,
          rng: rng.split(
            installed.length === 0
              ? `switch/${sw.index}/cc`
              : `switch/${sw.index}/cc/${planned.order}`,
          ),
          switchIndex: sw.index,
          portCount: sw.portCount,
          port: (i) => sw.portView(i),
          inputBufferBytes: () => bufferBytes,
          facesHost: (port) => switchPorts[sw.index]![port]?.kind === "host",
          sendControl: (packet) => sw.sendControl(packet),
          sendOnPort: (port, packet) => sw.sendOnPort(port, packet),
          wake: (outPort) => sw.wake(outPort),
        };
        installed.push({
          part: planned.factory.create(context),
          label: planned.declaring.label,
          vls: planned.vls,
          droppableVls: planned.droppableVls,
        });
      }
      sw.setParts(installed);
    }
  }
  for (const host of net.hosts) {
    const scheme = hostCc[host.index] ?? cc;
    if (scheme === undefined) continue;
    const lanes = Object.assign(
      {},
      ...(plan.hostParts.get(scheme) ?? []).map((p) => plan.lanes.lanesOf(p)),
    ) as Record<string, number>;
    const context: HostPartContext = {
      scheduler,
      packets,
      controlVls,
      lanes,
      lowPriorityVls,
      rng: rng.split(`host/${host.index}/cc`),
      hostIndex: host.index,
      hostCount: net.hosts.length,
      port: host.portView(),
      uplinkRateGbps: host.uplinkRateGbps(),
      controlPacketBytes: net.hostConfig.controlPacketBytes,
      mtuBytes: net.hostConfig.mtuBytes,
      dataHeaderBytes: net.hostConfig.headerBytes,
      sendControl: (packet) => host.sendControl(packet),
      gatesChanged: () => host.gatesChanged(),
      resend: (packet) => host.resend(packet),
      setFlowVl: (flowId, vl) => host.setFlowVl(flowId, vl),
      sendLinkControl: (packet) => host.sendLinkControl(packet),
    };
    host.setParts(scheme.senderPart?.create(context), scheme.receiverPart?.create(context));
  }
}
