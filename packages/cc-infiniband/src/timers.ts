import type { EventHandle, Scheduler, TimePs } from "@cclab/core-des";

/** Something a CCTI timer calls when it expires. */
export interface TimerOwner {
  expire(): void;
}

interface Registry {
  readonly kind: number;
  readonly owners: TimerOwner[];
}

// One event kind per scheduler for every CCTI timer of every host: the target is the owner's
// index, so a timer costs no closure per event (DESIGN.md, hot-loop rules).
const registries = new WeakMap<Scheduler, Registry>();

/** A cancellable one-shot timer on `scheduler` that calls `owner.expire()`. */
export class CctiTimer {
  private readonly target: number;
  private readonly kind: number;
  private handle: EventHandle | undefined;

  constructor(
    private readonly scheduler: Scheduler,
    owner: TimerOwner,
  ) {
    let registry = registries.get(scheduler);
    if (registry === undefined) {
      const owners: TimerOwner[] = [];
      const kind = scheduler.defineKind("infiniband: CCTI timer", (i) => owners[i]!.expire());
      registry = { kind, owners };
      registries.set(scheduler, registry);
    }
    this.kind = registry.kind;
    this.target = registry.owners.length;
    registry.owners.push(owner);
  }

  get armed(): boolean {
    return this.handle !== undefined && this.scheduler.isPending(this.handle);
  }

  /** Arms (or re-arms) the timer to expire at `atPs`. */
  armAt(atPs: TimePs): void {
    if (this.handle !== undefined) this.scheduler.cancel(this.handle);
    this.handle = this.scheduler.scheduleCancellable(atPs, this.kind, this.target);
  }
}
