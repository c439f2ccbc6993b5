import {
  DATA_KIND,
  type HostPartContext,
  type PacketId,
  type ReceiverPart,
  type ReceiverPartFactory,
} from "@cclab/fabric";
import { TCD_CE, TCD_CODE_COLUMN, TCD_UE, tcdCodeColumn } from "./tcd.js";

/**
 * The notification point when `tcdReaction` is on: as the plain one (receiver-part.ts), a data
 * packet with FECN and no BECN makes a CNP with BECN back to its source at once, on arrival,
 * ahead of data; and so does one that a TCD switch marked Undetermined Encountered. The CNP
 * carries the code in its own `tcd.code` column: CE (3) for a packet with FECN, UE (2) for one
 * with UE only (see tcd.ts).
 *
 * INFERRED: TCD's slides name an "IB CC+TCD" scheme (seed `004_abc94112a2f36164.txt` line 399)
 * but not its rules. By analogy with the authors' DCQCN+TCD (their public ns-3 code,
 * github.com/Yi-ran/DCQCN-TCD, `CheckandSendQCN`), whose notification carries the code of the
 * marks it answers (CE if any CE was seen, else UE), the destination here returns a
 * BECN for UE as well as for CE and says which it was. A packet is CE when it has FECN (a TCD
 * switch sets FECN with CE, as IB CC marking does, and UE never overwrites CE, line 258) or,
 * defensively, code 3 without FECN.
 */
export function createTcdReceiverPart(context: HostPartContext): ReceiverPart {
  const packets = context.packets;
  const scheduler = context.scheduler;
  // Made (or found: the detector's) once; its array is read per packet, after any allocation.
  const code = tcdCodeColumn(packets);
  const cnpKind = packets.kindCodeOf("cnp");
  const cnpBytes = context.controlPacketBytes;
  const controlVl: number | undefined = context.controlVls[0];
  let fecnReceived = 0;
  let cnpSent = 0;
  let ceBecnSent = 0;
  let ueBecnSent = 0;
  return {
    onArrive(packet: PacketId): void {
      // FECN is ignored on ACKs and CNPs and with BECN (Paper I L858, Paper II L1273); so is UE.
      if (packets.kindCode[packet] !== DATA_KIND || packets.becn[packet] === 1) return;
      const fecn = packets.fecn[packet] !== 0;
      const marked = code.values[packet]!;
      let becnCode: number;
      if (fecn || marked === TCD_CE) becnCode = TCD_CE;
      else if (marked === TCD_UE) becnCode = TCD_UE;
      else return;
      if (fecn) fecnReceived++;
      const vl = controlVl ?? packets.vl[packet]!;
      const cnp = packets.replyTo(packet, cnpKind, cnpBytes, vl, scheduler.nowPs);
      packets.becn[cnp] = 1;
      // After `replyTo`: a new packet may have grown the store, and with it the column's array.
      code.values[cnp] = becnCode;
      context.sendControl(cnp);
      cnpSent++;
      if (becnCode === TCD_CE) ceBecnSent++;
      else ueBecnSent++;
    },
    counters: () => ({ fecnReceived, cnpSent, ceBecnSent, ueBecnSent }),
  };
}

/**
 * It reads FECN and `tcd.code`, so the network refuses a fabric whose switches write no
 * `tcd.code` (an IB CC switch alone would never mark UE). It writes `tcd.code` on its CNPs but
 * does not declare it: the composition check counts a host part's writes as writers, so the
 * declaration would satisfy its own read (and the sender's) and silence that check.
 * `Packets.column` is contract 3.0.
 */
export const tcdReceiverPartFactory: ReceiverPartFactory = {
  specVersion: "^3.0.0",
  name: "infiniband receiver (FECN or TCD UE → CNP)",
  reads: ["fecn", TCD_CODE_COLUMN],
  writes: ["becn"],
  create: createTcdReceiverPart,
};
