/** A flow crossing a set of links, optionally limited by its own demand. */
export interface MaxMinFlow {
  /** Indices into `capacities` of the links the flow crosses (a link listed twice counts twice). */
  links: readonly number[];
  /** Most the flow can use (e.g. a host injection cap), in the capacities' unit. */
  demand?: number;
}

export interface MaxMinProblem {
  /** Capacity of each link, in one rate unit (e.g. Gb/s); finite and ≥ 0. */
  capacities: readonly number[];
  flows: readonly MaxMinFlow[];
}

export interface MaxMinSolution {
  /** Max-min fair rate of each flow, in the capacities' unit. */
  rates: number[];
  /** The saturated link that limits each flow, or −1 when its own demand does. */
  bottlenecks: number[];
}

/** Residual capacity, relative to a link's capacity, below which the link counts as full. */
const SATURATION_TOLERANCE = 1e-12;

/**
 * Max-min fair allocation by progressive filling (Bertsekas & Gallager, "Data Networks",
 * §6.5.2): raise all unfrozen flows' rates together until a link saturates or a flow meets its
 * demand, freeze the flows concerned, repeat. The result is the unique allocation in which
 * every flow has a bottleneck: a saturated link on which no other flow gets more, or its own
 * demand. Tests of every scheme compare measured throughput against these rates.
 */
export function maxMinFairShare(problem: MaxMinProblem): MaxMinSolution {
  const { capacities, flows } = problem;
  capacities.forEach((c, l) => {
    if (!(c >= 0) || !Number.isFinite(c)) {
      throw new RangeError(`capacities[${l}] must be finite and ≥ 0, got ${c}`);
    }
  });
  flows.forEach((flow, f) => {
    for (const l of flow.links) {
      if (!Number.isInteger(l) || l < 0 || l >= capacities.length) {
        throw new RangeError(
          `flows[${f}].links has ${l}: links are indices 0..${capacities.length - 1}`,
        );
      }
    }
    const d = flow.demand;
    if (d !== undefined && (!(d >= 0) || !Number.isFinite(d))) {
      throw new RangeError(`flows[${f}].demand must be finite and ≥ 0, got ${d}`);
    }
    if (flow.links.length === 0 && d === undefined) {
      throw new RangeError(`flows[${f}] crosses no link and has no demand: its rate is unbounded`);
    }
  });

  const rates = new Array<number>(flows.length).fill(0);
  const bottlenecks = new Array<number>(flows.length).fill(-1);
  const frozen = new Array<boolean>(flows.length).fill(false);
  const residual = capacities.slice();
  const active = new Array<number>(capacities.length).fill(0);
  for (const flow of flows) for (const l of flow.links) active[l]!++;
  let unfrozen = flows.length;

  const freeze = (f: number, bottleneck: number): void => {
    frozen[f] = true;
    bottlenecks[f] = bottleneck;
    unfrozen--;
    for (const l of flows[f]!.links) active[l]!--;
  };

  while (unfrozen > 0) {
    const unfrozenBefore = unfrozen;
    let step = Number.POSITIVE_INFINITY;
    for (let l = 0; l < capacities.length; l++) {
      if (active[l]! > 0) step = Math.min(step, residual[l]! / active[l]!);
    }
    for (let f = 0; f < flows.length; f++) {
      const d = flows[f]!.demand;
      if (!frozen[f] && d !== undefined) step = Math.min(step, d - rates[f]!);
    }
    step = Math.max(0, step);
    for (let f = 0; f < flows.length; f++) if (!frozen[f]) rates[f]! += step;
    for (let l = 0; l < capacities.length; l++) residual[l]! -= step * active[l]!;

    // Freeze flows on links that are now full, then flows that reached their demand.
    for (let l = 0; l < capacities.length; l++) {
      if (active[l]! === 0 || residual[l]! > SATURATION_TOLERANCE * capacities[l]!) continue;
      residual[l] = 0;
      for (let f = 0; f < flows.length; f++) {
        if (!frozen[f] && flows[f]!.links.includes(l)) freeze(f, l);
      }
    }
    for (let f = 0; f < flows.length; f++) {
      const d = flows[f]!.demand;
      if (!frozen[f] && d !== undefined && rates[f]! >= d * (1 - SATURATION_TOLERANCE)) {
        rates[f] = d;
        freeze(f, -1);
      }
    }
    // The smallest step always fills a link or meets a demand, so each round freezes a flow.
    if (unfrozen === unfrozenBefore) throw new Error("maxMinFairShare made no progress");
  }
  return { rates, bottlenecks };
}
