import type { LaneDeclaration } from "@cclab/fabric";

/**
 * SRP's lanes (seed 000_23e1115f082a0339.txt, lines 94–96): two control lanes served before
 * data, one for reservations and one for grants, ACKs and NACKs, and a low-priority lane for
 * speculative packets, the only one whose packets a switch may drop. Every SRP part declares
 * all three, so the network plans them once and the composition check sees them agree.
 */
export const RESERVATION_LANE = "srp.reservation";
export const REPLY_LANE = "srp.reply";
export const SPECULATIVE_LANE = "srp.speculative";

export const SRP_LANES: readonly LaneDeclaration[] = [
  { name: RESERVATION_LANE, role: "control" },
  { name: REPLY_LANE, role: "control" },
  { name: SPECULATIVE_LANE, role: "low-priority", droppable: true },
];

/**
 * Scheme-owned packet columns (`Packets.column`): what SRP's packets carry besides the header.
 * - `srp.queuedPs`: a speculative packet's queueing time summed over the switches it has left;
 * - `srp.arrivedPs`: when it entered its current switch's input queue;
 * - `srp.chunk`: the sender's number of the reservation a data packet, reservation, grant or
 *   ACK belongs to;
 * - `srp.packets`: a reservation's size n, packets;
 * - `srp.startPs`: a grant's start time t_s, ps;
 * - `srp.dropped`: the id of the packet a NACK reports (kept allocated until it is resent);
 * - `srp.psn`: in the in-order variant, a data packet's number in its flow plus one (0: none),
 *   by which the destination knows a second copy, and an ACK names the packet it answers.
 */
export const COLUMN = {
  queuedPs: "srp.queuedPs",
  arrivedPs: "srp.arrivedPs",
  chunk: "srp.chunk",
  packets: "srp.packets",
  startPs: "srp.startPs",
  dropped: "srp.dropped",
  psn: "srp.psn",
} as const;
