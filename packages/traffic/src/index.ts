export type { CdfPoint, CdfPoints } from "./cdf-points.js";
export {
  type CongestionTreesLayout,
  type CongestionTreesParams,
  congestionTreesLayout,
  movingTrees,
  silentTrees,
  type TreeRole,
  windyTrees,
} from "./congestion-trees.js";
export { BUILT_IN_CDFS, type BuiltInCdf } from "./distributions/index.js";
export { hotspot } from "./hotspot.js";
export { hotspotBackground } from "./hotspot-background.js";
export { impulse } from "./impulse.js";
export { mergeSources } from "./merge.js";
export { onOff } from "./onoff.js";
export {
  type CheckContext,
  definePattern,
  isFinitePattern,
  type PatternParams,
  type PatternSpec,
  type TrafficPattern,
} from "./pattern.js";
export {
  createTrafficSource,
  TRAFFIC_PATTERNS,
  type TrafficEntry,
  trafficEntrySchema,
} from "./registry.js";
export { scheduled } from "./scheduled.js";
export {
  DEFAULT_SIZE,
  type MessageSize,
  meanBytes,
  meanSquareBytes,
  sampleBytes,
  sizeSchema,
} from "./size.js";
export { type FlowTrace, parseFlowTrace, trace } from "./trace.js";
export type { BudgetStream, TrafficContext, TrafficMessage, TrafficSource } from "./types.js";
export { uniform } from "./uniform.js";
