import type { LaneDeclaration, PacketId, Packets } from "@cclab/fabric";

/**
 * EcoCC's messages between neighbours (Paper VI, seed 001 L2271–2287): a switch input tells the
 * device at the other end of its link (its upstream neighbour) that it isolates a congestion
 * tree (allocate), that the hot queue holding it is full (stop) or drained (go), and that the
 * tree is gone (deallocate). They are link-local: they travel one link, never routed.
 */
export const MESSAGE_KIND = {
  allocate: "x-ecocc-allocate",
  stop: "x-ecocc-stop",
  go: "x-ecocc-go",
  deallocate: "x-ecocc-deallocate",
} as const;
export type MessageType = keyof typeof MESSAGE_KIND;

/**
 * What a message carries (`Packets.control`). `line` names the sender's CAM line on that link
 * (the paper's NextLine, L2273); an allocate also carries the line's hop count and destination
 * list (L2271).
 */
export interface EcoccMessage {
  readonly type: MessageType;
  readonly line: number;
  readonly hops: number;
  readonly dList: readonly number[];
}

/**
 * The lane the messages and the CNPs travel on: a control lane, served ahead of data, so a stop
 * is never queued behind the data it is meant to hold back (not given in the paper; README).
 */
export const CONTROL_LANE = "control";
export const ECOCC_LANES: readonly LaneDeclaration[] = [{ name: CONTROL_LANE, role: "control" }];

/** Builds a message packet; the caller sends it on a port. */
export function makeMessage(
  packets: Packets,
  message: EcoccMessage,
  sizeBytes: number,
  vl: number,
  nowPs: number,
): PacketId {
  return packets.create({
    kind: MESSAGE_KIND[message.type],
    sizeBytes,
    vl,
    srcHost: -1,
    flowId: -1,
    createdPs: nowPs,
    injectedPs: nowPs,
    control: message,
  });
}

/** The message a packet carries, or undefined for any other packet. */
export function messageOf(packets: Packets, packet: PacketId): EcoccMessage | undefined {
  const control = packets.control[packet];
  if (typeof control !== "object" || control === null) return undefined;
  const m = control as Partial<EcoccMessage>;
  return typeof m.type === "string" && m.type in MESSAGE_KIND
    ? (control as EcoccMessage)
    : undefined;
}
