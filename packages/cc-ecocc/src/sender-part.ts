import { createSenderPart as createIbSenderPart } from "@cclab/cc-infiniband";
import type { TimePs } from "@cclab/core-des";
import type {
  FlowGate,
  FlowInfo,
  HostPartContext,
  PacketId,
  SenderPart,
  SenderPartFactory,
} from "@cclab/fabric";
import { ECOCC_LANES, messageOf } from "./messages.js";
import type { EcoccParams } from "./params.js";

/** A line the host's switch allocated at this host (its hot injection queue's, L2301, L2307). */
interface HostLine {
  readonly dList: ReadonlySet<number>;
  stop: boolean;
}

/**
 * A flow's gate: closed while a stopped line holds its destination, and, with throttling, not
 * before the InfiniBand gate of the flow allows. One object per flow, asked at every send
 * decision of its host.
 */
class StopAwareGate implements FlowGate {
  constructor(
    private readonly dst: number,
    private readonly held: (dst: number) => boolean,
    private readonly inner: FlowGate | undefined,
  ) {}

  nextSendPs(nowPs: TimePs): TimePs {
    return this.inner === undefined ? nowPs : this.inner.nextSendPs(nowPs);
  }

  windowOpen(): boolean {
    return !this.held(this.dst);
  }

  onSent(packet: PacketId): void {
    this.inner?.onSent?.(packet);
  }
}

/**
 * EcoCC's host adapter (Paper VI, seed 001 L2293–2307). The adapter keeps a generation queue
 * per destination (L2301); in cclab each flow (queue pair) is one, so its injection CPQ and
 * HPQs reduce to a gate per flow: a flow may send only while no line with stop set holds its
 * destination (Event #10, L2301). The lines come from the switch's allocate and deallocate,
 * the stop bit from its stop and go; at most `hotQueues` lines are kept, as the adapter has that
 * many HPQs (L2364), and messages about a line it had no room for are ignored. With
 * throttling (ecocc) the gate also waits the InfiniBand injection rate delay of its CCTI
 * (CCT, CCTI_Timer, BECNs; the `infiniband` plugin's sender, L2299).
 */
export function createSenderPart(p: EcoccParams, context: HostPartContext): SenderPart {
  const packets = context.packets;
  const lines = new Map<number, HostLine>();
  const throttling = p.throttle === null ? undefined : createIbSenderPart(p.throttle, context);
  let stopped = 0;
  let linesRefused = 0;
  let linesAllocated = 0;
  let linesReleased = 0;

  const held = (dst: number): boolean => {
    if (stopped === 0) return false;
    for (const line of lines.values()) if (line.stop && line.dList.has(dst)) return true;
    return false;
  };

  const setStop = (line: HostLine, stop: boolean): void => {
    if (line.stop === stop) return;
    line.stop = stop;
    stopped += stop ? 1 : -1;
  };

  return {
    openFlow(flow: FlowInfo): FlowGate {
      return new StopAwareGate(flow.dstHost, held, throttling?.openFlow(flow));
    },
    ...(throttling?.onControl === undefined
      ? {}
      : { onControl: (packet: PacketId) => throttling.onControl!(packet) }),
    onLinkControl(packet: PacketId): void {
      const m = messageOf(packets, packet);
      if (m === undefined) return;
      const line = lines.get(m.line);
      if (m.type === "allocate") {
        if (line !== undefined) return;
        if (lines.size >= p.hotQueues) {
          linesRefused++;
          return;
        }
        lines.set(m.line, { dList: new Set(m.dList), stop: false });
        linesAllocated++;
      } else if (line !== undefined) {
        setStop(line, m.type === "stop");
        if (m.type === "deallocate") {
          lines.delete(m.line);
          linesReleased++;
        }
      }
    },
    counters: () => ({
      ...(throttling?.counters?.() ?? {}),
      hostLinesAllocated: linesAllocated,
      hostLinesReleased: linesReleased,
      hostLinesRefused: linesRefused,
      // Lines stopped now (a gauge): 0 once every stop has had its go.
      hostLinesStopped: stopped,
    }),
    ...(throttling?.sampleFlows === undefined
      ? {}
      : { sampleFlows: (visit) => throttling.sampleFlows!(visit) }),
  };
}

export function senderPartFactory(p: EcoccParams): SenderPartFactory {
  return {
    specVersion: "^3.0.0",
    name:
      p.throttle === null
        ? "hfdi host (stop-aware injection)"
        : "ecocc host (stop-aware injection, CCT throttling)",
    lanes: ECOCC_LANES,
    ...(p.throttle === null ? {} : { reads: ["becn"] as const }),
    create: (context) => createSenderPart(p, context),
  };
}
