import { type TimePs, usToPs } from "@cclab/core-des";
import {
  DATA_KIND,
  type HostPartContext,
  type PacketColumn,
  type PacketId,
  type ReceiverPart,
} from "@cclab/fabric";
import { IntervalFlow, TICK } from "./interval-flow.js";
import type { DcqcnParams } from "./params.js";
import { TcdCode, tcdCodeColumn } from "./tcd-code.js";

/**
 * What the notification point keeps per incoming flow with `tcdReaction`: its grid of CNP
 * ticks (from its first packet) and the OR of the codes that arrived since the last tick.
 */
class TcdFlow extends IntervalFlow {
  /** OR of the codes of the flow's packets since the last tick (0: nothing marked). */
  code = 0;

  constructor(
    flowId: number,
    firstPs: TimePs,
    private readonly np: TcdNp,
  ) {
    super(flowId, firstPs, np.context.scheduler);
  }

  expire(): void {
    this.np.tick(this);
  }
}

/**
 * The notification point of DCQCN with TCD, as the authors' reference code has it
 * (Yi-ran/DCQCN-TCD, `qbb-net-device.cc`): a flow's first packet calls `CheckandSendQCN`,
 * which then reschedules itself every CNP interval for good; each call sends one CNP if the
 * OR of the ECN bits of the packets since the last call is non-zero, carrying that OR (11 if
 * any CE arrived, else 10), and clears it. Unlike the paper's notification point, a mark is
 * never answered at once (except at the very first tick, the first packet's own).
 *
 * A tick with nothing to send changes nothing, so the timer here runs only while some code
 * waits: a mark into an empty OR arms it for the next point of the flow's grid after now. A
 * tick the reference would have at the same time as the arrival counts as before it (it was
 * scheduled an interval earlier, and events at one time run in the order they were scheduled).
 */
class TcdNp {
  readonly flows = new Map<number, TcdFlow>();
  ceReceived = 0;
  ueReceived = 0;
  ceCnpSent = 0;
  ueCnpSent = 0;
  private readonly intervalPs: number;
  private readonly codes: PacketColumn<Uint8Array<ArrayBuffer>>;

  constructor(
    readonly context: HostPartContext,
    p: DcqcnParams,
  ) {
    this.intervalPs = usToPs(p.cnpIntervalUs);
    this.codes = tcdCodeColumn(context.packets);
  }

  arrive(packet: PacketId): void {
    const context = this.context;
    const packets = context.packets;
    if (packets.kindCode[packet] !== DATA_KIND) return;
    // The switch writes the column; the ECN field carries the same code points in CEE (seed
    // 004_abc94112a2f36164.txt lines 262–266), so a CE of a plain RED switch on the path counts
    // as CE too. DCQCN's own data leave as 01 (ECT), which adds nothing to the OR.
    const ecn = packets.ecn[packet]!;
    const code = this.codes.values[packet]! | (ecn >= TcdCode.undetermined ? ecn : 0);
    if (code === TcdCode.congestion) this.ceReceived++;
    else if (code === TcdCode.undetermined) this.ueReceived++;
    const flowId = packets.flowId[packet]!;
    const now = context.scheduler.nowPs;
    let f = this.flows.get(flowId);
    const first = f === undefined;
    if (f === undefined) {
      f = new TcdFlow(flowId, now, this);
      this.flows.set(flowId, f);
    }
    if (code < TcdCode.undetermined) return;
    f.replyTo(packet, context);
    const waiting = f.code !== TcdCode.none;
    f.code |= code;
    // The reference's first check runs within the first packet's own arrival.
    if (first) this.tick(f);
    else if (!waiting) {
      const k = Math.floor((now - f.firstPs) / this.intervalPs) + 1;
      f.timers.armAt(TICK, f.firstPs + k * this.intervalPs);
    }
  }

  // One CNP with the OR of the interval's codes, on the control VL (ahead of data).
  tick(f: TcdFlow): void {
    const context = this.context;
    const cnp = f.makeCnp(context);
    // After `create`: the column's array is replaced when the store grows.
    this.codes.values[cnp] = f.code;
    if (f.code === TcdCode.congestion) this.ceCnpSent++;
    else this.ueCnpSent++;
    f.code = TcdCode.none;
    context.sendControl(cnp);
  }
}

/**
 * The notification point with `tcdReaction`: per flow, one CNP per `cnpIntervalUs` on the grid
 * from the flow's first packet, carrying the OR of the TCD codes of the packets of the interval
 * in its `tcd.code` (3: a CE arrived, 2: only UE), none when nothing was marked.
 */
export function createTcdReceiverPart(p: DcqcnParams, context: HostPartContext): ReceiverPart {
  const np = new TcdNp(context, p);
  return {
    onArrive: (packet) => np.arrive(packet),
    counters: () => ({
      ceReceived: np.ceReceived,
      ueReceived: np.ueReceived,
      cnpSent: np.ceCnpSent + np.ueCnpSent,
      ceCnpSent: np.ceCnpSent,
      ueCnpSent: np.ueCnpSent,
    }),
  };
}
