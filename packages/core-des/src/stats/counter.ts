/** A monotonic event or byte count. */
export class Counter {
  #value = 0;

  get value(): number {
    return this.#value;
  }

  /** Adds `amount` (default 1); amounts must be finite and non-negative. */
  add(amount = 1): void {
    if (!(amount >= 0) || !Number.isFinite(amount)) {
      throw new RangeError(`a counter only grows: amount must be finite and ≥ 0, got ${amount}`);
    }
    this.#value += amount;
  }
}

/**
 * Counts keyed by name (e.g. marks by kind: `fecn`, `becn`, `cnp`). Keys appear in
 * `toJSON()` in the order they were first counted, so output is deterministic.
 */
export class Counters {
  readonly #values = new Map<string, number>();

  add(name: string, amount = 1): void {
    if (!(amount >= 0) || !Number.isFinite(amount)) {
      throw new RangeError(`counter "${name}": amount must be finite and ≥ 0, got ${amount}`);
    }
    this.#values.set(name, (this.#values.get(name) ?? 0) + amount);
  }

  get(name: string): number {
    return this.#values.get(name) ?? 0;
  }

  toJSON(): Record<string, number> {
    return Object.fromEntries(this.#values);
  }
}
