import {
  OwnerTimers,
  serializationPs,
  type TimePs,
  type TimerOwner,
  usToPs,
} from "@cclab/core-des";
import type {
  FlowGate,
  FlowInfo,
  HostPartContext,
  PacketId,
  SenderPart,
  SenderPartFactory,
} from "@cclab/fabric";
import type { Params } from "./params.js";
import { ECHO_KIND, SCHEME } from "./scheme.js";

const INCREASE_TIMER = 0;

/**
 * One flow's rate limiter: a packet may start once the previous one would have taken its
 * time at the flow's rate. An echo cuts the rate; a timer then raises it step by step.
 */
class FlowRate implements FlowGate, TimerOwner {
  rateGbps: number;
  cuts = 0;
  increases = 0;
  private lastStartPs: TimePs = Number.NEGATIVE_INFINITY;
  private lastSizeBytes = 0;
  private gapPs = 0;
  private lastCutPs: TimePs = Number.NEGATIVE_INFINITY;
  private readonly timers: OwnerTimers;

  constructor(
    private readonly p: Params,
    private readonly host: HostPartContext,
  ) {
    this.rateGbps = host.uplinkRateGbps;
    // Every flow's timers share one event kind of this name (no closure per event).
    this.timers = new OwnerTimers(host.scheduler, `${SCHEME}: rate increase`, this);
  }

  // Asked several times per send decision: answers from the state, changes nothing.
  nextSendPs(nowPs: TimePs): TimePs {
    return Math.max(nowPs, this.lastStartPs + this.gapPs);
  }

  onSent(packet: PacketId): void {
    this.lastStartPs = this.host.scheduler.nowPs;
    this.lastSizeBytes = this.host.packets.sizeBytes[packet]!;
    this.setRate(this.rateGbps);
  }

  /** An echo of this flow arrived: cut, unless the last cut is younger than one period. */
  echo(): void {
    const nowPs = this.host.scheduler.nowPs;
    const periodPs = usToPs(this.p.increasePeriodUs);
    if (nowPs - this.lastCutPs < periodPs) return;
    this.lastCutPs = nowPs;
    this.cuts++;
    this.setRate(Math.max(this.p.minRateGbps, this.rateGbps * this.p.decreaseFactor));
    this.timers.armAt(INCREASE_TIMER, nowPs + periodPs);
  }

  expire(): void {
    this.increases++;
    this.setRate(Math.min(this.host.uplinkRateGbps, this.rateGbps + this.p.increaseStepGbps));
    if (this.rateGbps < this.host.uplinkRateGbps) {
      this.timers.armAt(
        INCREASE_TIMER,
        this.host.scheduler.nowPs + usToPs(this.p.increasePeriodUs),
      );
    }
    // The gate may now allow a packet earlier than it said: the host asks again.
    this.host.gatesChanged();
  }

  private setRate(rateGbps: number): void {
    this.rateGbps = rateGbps;
    this.gapPs = this.lastSizeBytes === 0 ? 0 : serializationPs(this.lastSizeBytes, rateGbps);
  }
}

/** The reaction point: a {@link FlowRate} per flow, the echoes routed to them. */
export function createSenderPart(p: Params, host: HostPartContext): SenderPart {
  const packets = host.packets;
  const echoKind = packets.kindCodeOf(ECHO_KIND);
  const flows = new Map<number, FlowRate>();
  let echoesReceived = 0;
  return {
    openFlow(flow: FlowInfo): FlowGate {
      const gate = new FlowRate(p, host);
      flows.set(flow.flowId, gate);
      return gate;
    },
    onControl(packet: PacketId): void {
      if (packets.kindCode[packet] !== echoKind) return;
      echoesReceived++;
      flows.get(packets.flowId[packet]!)?.echo();
    },
    counters() {
      let cuts = 0;
      let increases = 0;
      for (const flow of flows.values()) {
        cuts += flow.cuts;
        increases += flow.increases;
      }
      return {
        [`${SCHEME}.echoesReceived`]: echoesReceived,
        [`${SCHEME}.rateCuts`]: cuts,
        [`${SCHEME}.rateIncreases`]: increases,
      };
    },
    // The `cc` series (cc-flows.csv): each flow's rate at every bin edge.
    sampleFlows(visit): void {
      for (const [flowId, flow] of flows) visit(flowId, "rateGbps", flow.rateGbps);
    },
  };
}

export function senderPartFactory(p: Params): SenderPartFactory {
  return {
    specVersion: "^3.0.0",
    name: `${SCHEME} rate control`,
    create: (host) => createSenderPart(p, host),
  };
}
