import type { EventHandle, EventKind, Scheduler } from "./scheduler.js";
import type { TimePs } from "./time.js";

/** Something with numbered timers: `expire(timer)` is called when one of them fires. */
export interface TimerOwner {
  expire(timer: number): void;
}

/** Timers one owner may have: its `expire` gets 0 … MAX_OWNER_TIMERS − 1. */
export const MAX_OWNER_TIMERS = 4;

interface Registry {
  readonly kind: EventKind;
  readonly owners: TimerOwner[];
}

// One event kind per scheduler and kind name for the timers of every owner: the event's target
// encodes the owner's index and the timer's number, so a timer costs no closure per event
// (docs/model.md, "Performance rules") and a CC scheme with a timer per flow defines one kind, not one
// per flow.
const registries = new WeakMap<Scheduler, Map<string, Registry>>();

/**
 * Cancellable one-shot timers of one owner (a flow's reaction point, a port's CCTI timer) on
 * `scheduler`. Every owner constructed with the same `kindName` on a scheduler shares one event
 * kind, named `kindName` (the scheduler names it in its errors).
 */
export class OwnerTimers {
  private readonly base: number;
  private readonly kind: EventKind;
  private readonly handles: (EventHandle | undefined)[] = [];

  constructor(
    private readonly scheduler: Scheduler,
    kindName: string,
    owner: TimerOwner,
  ) {
    let byName = registries.get(scheduler);
    if (byName === undefined) {
      byName = new Map();
      registries.set(scheduler, byName);
    }
    let registry = byName.get(kindName);
    if (registry === undefined) {
      const owners: TimerOwner[] = [];
      const kind = scheduler.defineKind(kindName, (target) =>
        owners[Math.floor(target / MAX_OWNER_TIMERS)]!.expire(target % MAX_OWNER_TIMERS),
      );
      registry = { kind, owners };
      byName.set(kindName, registry);
    }
    this.kind = registry.kind;
    this.base = registry.owners.length * MAX_OWNER_TIMERS;
    registry.owners.push(owner);
  }

  /** True while `timer` is set and has not fired. */
  armed(timer: number): boolean {
    const handle = this.handles[timer];
    return handle !== undefined && this.scheduler.isPending(handle);
  }

  /** Sets (or resets) `timer` to fire at `atPs`; a timer set before is cancelled. */
  armAt(timer: number, atPs: TimePs): void {
    if (!(timer >= 0 && timer < MAX_OWNER_TIMERS && (timer | 0) === timer)) {
      throw new RangeError(
        `timer must be an integer in 0…${MAX_OWNER_TIMERS - 1}, got ${String(timer)}`,
      );
    }
    const handle = this.handles[timer];
    if (handle !== undefined) this.scheduler.cancel(handle);
    this.handles[timer] = this.scheduler.scheduleCancellable(atPs, this.kind, this.base + timer);
  }

  /** Stops `timer` if it is set. */
  disarm(timer: number): void {
    const handle = this.handles[timer];
    if (handle !== undefined) this.scheduler.cancel(handle);
    this.handles[timer] = undefined;
  }
}
