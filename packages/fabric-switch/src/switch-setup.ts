import type { RngStream, Scheduler } from "@cclab/core-des";
import type { FlowControlDiscipline, ForwardingTable, LinkSet, Packets } from "@cclab/fabric";
import type { SwitchConfig } from "./switch-config.js";

/** Ports per switch the event target encoding allows (target = switch << 10 | port). */
export const MAX_SWITCH_PORTS = 1024;

/** A switch port's event target is `switch << PortBits | port` (an enum: written as literals). */
export enum Target {
  PortBits = 10,
}

/** The switch event kinds, registered once per scheduler by {@link registerSwitchEvents}. */
export interface SwitchKinds {
  readonly txEnd: number;
  readonly transferEnd: number;
  readonly controlQueued: number;
  readonly headDropped: number;
}

/** What the switch events call. */
export interface SwitchEventTarget {
  transmissionEnded(outPort: number): void;
  transferEnded(outPort: number): void;
  controlQueued(outPort: number): void;
  headDropped(input: number): void;
}

/** Registers the switch event kinds on a scheduler, dispatching to `switches` by index. */
export function registerSwitchEvents(
  scheduler: Scheduler,
  switches: readonly SwitchEventTarget[],
): SwitchKinds {
  const mask = MAX_SWITCH_PORTS - 1;
  return {
    txEnd: scheduler.defineKind("switch: transmission ends", (target) =>
      switches[target >>> Target.PortBits]!.transmissionEnded(target & mask),
    ),
    transferEnd: scheduler.defineKind("switch: crossbar transfer ends", (target) =>
      switches[target >>> Target.PortBits]!.transferEnded(target & mask),
    ),
    controlQueued: scheduler.defineKind("switch: control packet queued during a drop", (target) =>
      switches[target >>> Target.PortBits]!.controlQueued(target & mask),
    ),
    headDropped: scheduler.defineKind("switch: queue head dropped", (target) =>
      switches[target >>> Target.PortBits]!.headDropped(target & mask),
    ),
  };
}

/** Everything a switch needs from the network that builds it. */
export interface SwitchSetup {
  readonly index: number;
  readonly name: string;
  readonly portCount: number;
  readonly hostCount: number;
  readonly config: SwitchConfig;
  readonly discipline: FlowControlDiscipline;
  readonly table: ForwardingTable;
  readonly scheduler: Scheduler;
  /** The network's packets. */
  readonly packets: Packets;
  /** The network's links (the switch sends on and returns flow control over them). */
  readonly links: LinkSet;
  /** Used by `random` port selection. */
  readonly rng: RngStream;
  /** Event kinds registered by {@link registerSwitchEvents}. */
  readonly kinds: SwitchKinds;
}
