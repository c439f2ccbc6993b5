export { SingleQueue, singleQueue } from "./queues/single-queue.js";
export { VoqPerDestination, voqPerDestination } from "./queues/voq-destination.js";
export { VoqPerOutput, voqPerOutput } from "./queues/voq-port.js";
export {
  MAX_SWITCH_PORTS,
  registerSwitchEvents,
  Switch,
  type SwitchKinds,
  type SwitchPortStats,
  type SwitchSetup,
} from "./switch.js";
export {
  type BufferConfig,
  DEFAULT_SWITCH_CONFIG,
  type PfcThresholds,
  QUEUEING_SCHEMES,
  type QueueingName,
  queueingPartOf,
  resolveSwitchConfig,
  type SwitchConfig,
} from "./switch-config.js";
export type { InstalledSwitchPart } from "./switch-parts.js";
