import type { EventHandle, Scheduler, TimePs } from "@cclab/core-des";

/** Something with numbered timers: `expire(timer)` is called when one fires. */
export interface TimerOwner {
  expire(timer: number): void;
}

/** Timers an owner may have (its `expire` gets 0 … MAX_TIMERS − 1). */
const MAX_TIMERS = 4;

interface Registry {
  readonly kind: number;
  readonly owners: TimerOwner[];
}

// One event kind per scheduler for every DCQCN timer of every device: the target encodes the
// owner's index and the timer's number, so a timer costs no closure per event (DESIGN.md,
// hot-loop rules).
const registries = new WeakMap<Scheduler, Registry>();

/** Cancellable one-shot timers of one owner on `scheduler`. */
export class Timers {
  private readonly base: number;
  private readonly kind: number;
  private readonly handles: (EventHandle | undefined)[] = [];

  constructor(
    private readonly scheduler: Scheduler,
    owner: TimerOwner,
  ) {
    let registry = registries.get(scheduler);
    if (registry === undefined) {
      const owners: TimerOwner[] = [];
      const kind = scheduler.defineKind("dcqcn: timer", (target) =>
        owners[Math.floor(target / MAX_TIMERS)]!.expire(target % MAX_TIMERS),
      );
      registry = { kind, owners };
      registries.set(scheduler, registry);
    }
    this.kind = registry.kind;
    this.base = registry.owners.length * MAX_TIMERS;
    registry.owners.push(owner);
  }

  /** True while `timer` is set and has not fired. */
  armed(timer: number): boolean {
    const handle = this.handles[timer];
    return handle !== undefined && this.scheduler.isPending(handle);
  }

  /** Sets (or resets) `timer` to fire at `atPs`. */
  armAt(timer: number, atPs: TimePs): void {
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
