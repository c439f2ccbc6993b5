import type { Scheduler, TimePs } from "@cclab/core-des";
import type { FlowControlDiscipline, LinkSet, PacketId, Packets } from "@cclab/fabric";
import type { Hca } from "./hca.js";
import type { HcaConfig } from "./hca-config.js";

/**
 * Called for every packet a host consumes (after its receive service), data and control. The
 * packet may be read during the call only: it is freed, and its id reused, once the listeners
 * and the host's CC parts have seen it.
 */
export type DeliveryListener = (packet: PacketId, nowPs: TimePs) => void;

/** Everything a host needs from the network that builds it. */
export interface HcaSetup {
  readonly index: number;
  readonly name: string;
  readonly hostCount: number;
  readonly vlCount: number;
  readonly config: HcaConfig;
  readonly discipline: FlowControlDiscipline;
  /** PFC thresholds of the receive buffer (PFC only). */
  readonly pfc?: { readonly xoffBytes: number; readonly xonBytes: number };
  readonly scheduler: Scheduler;
  /** Event kinds registered by {@link registerHcaEvents}. */
  readonly kinds: HcaKinds;
  /** Assigns message ids unique in the network. */
  readonly nextMessageId: () => number;
  /** The network's packets: data packets are made here and freed once consumed. */
  readonly packets: Packets;
  /** The network's links (the host sends on its uplink and returns flow control on its downlink). */
  readonly links: LinkSet;
  /**
   * Whether the host keeps its own latency histograms (`totalLatencyPs`, `networkLatencyPs`).
   * Default true; a runner that keeps its own (with a warm-up) turns them off: two histogram
   * updates less per delivered packet.
   */
  readonly latencyStats?: boolean;
  /**
   * Whether the host keeps every completed message in `completions`. Default true; a runner
   * that takes them as they happen ({@link Hca.onMessageComplete}) turns it off, so a long run
   * does not hold one record per message.
   */
  readonly keepCompletions?: boolean;
  /**
   * Low-priority lanes (SRP's speculative lane): the host's uplink sends a packet on one of
   * them only when no queue pair on another lane may send (docs/model.md, "Hosts").
   */
  readonly lowPriorityVls?: readonly number[];
}

/** The host event kinds, registered once per scheduler; each event's target is a host index. */
export interface HcaKinds {
  readonly messageArrives: number;
  readonly txEnds: number;
  readonly wake: number;
  readonly rxEnds: number;
}

/** Registers the host event kinds on a scheduler, dispatching to `hosts` by index. */
export function registerHcaEvents(scheduler: Scheduler, hosts: readonly Hca[]): HcaKinds {
  return {
    messageArrives: scheduler.defineKind("host: messages arrive", (i) =>
      hosts[i]!.messagesArrive(),
    ),
    txEnds: scheduler.defineKind("host: transmission ends", (i) => hosts[i]!.transmissionEnded()),
    wake: scheduler.defineKind("host: may send", (i) => hosts[i]!.wake()),
    rxEnds: scheduler.defineKind("host: packet consumed", (i) => hosts[i]!.receiveEnded()),
  };
}
