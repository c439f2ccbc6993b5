export { IdIndex } from "./id-index.js";
export { MAX_OWNER_TIMERS, OwnerTimers, type TimerOwner } from "./owner-timers.js";
export { createRng, RngStream } from "./rng.js";
export {
  type EventHandle,
  type EventHandler,
  type EventKind,
  type KindProfile,
  PROFILE_SAMPLE_EVERY,
  type RunOptions,
  type RunOutcome,
  Scheduler,
  type SchedulerOptions,
} from "./scheduler.js";
export { Counter, Counters } from "./stats/counter.js";
export { Histogram, type HistogramOptions, type HistogramSummary } from "./stats/histogram.js";
export { jainIndex } from "./stats/jain.js";
export {
  type MaxMinFlow,
  type MaxMinProblem,
  type MaxMinSolution,
  maxMinFairShare,
} from "./stats/max-min.js";
export { nearestRank, nearestRankOf } from "./stats/quantile.js";
export { RateSeries } from "./stats/rate-series.js";
export { TimeWeightedAverage, type TimeWeightedOptions } from "./stats/time-weighted.js";
export {
  assertTimePs,
  formatTimePs,
  isTimePs,
  MAX_TIME_NS,
  MAX_TIME_PS,
  MAX_TIME_US,
  msToPs,
  nsToPs,
  PS_PER_MS,
  PS_PER_NS,
  PS_PER_S,
  PS_PER_US,
  psToMs,
  psToNs,
  psToS,
  psToUs,
  rateGbps,
  serializationPs,
  sToPs,
  TIME_TOO_LATE,
  type TimePs,
  usToPs,
} from "./time.js";
export { ensureLength, type GrowableArray, resized } from "./typed-array.js";
