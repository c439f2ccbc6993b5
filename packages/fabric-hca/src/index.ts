export { EgressBuffer, type EgressBufferConfig } from "./egress-buffer.js";
export { flowEndpoints, flowIdOf } from "./flow-id.js";
export { Hca, type HostEgressStats, type HostPortStats } from "./hca.js";
export {
  DEFAULT_HCA_CONFIG,
  type HcaConfig,
  INJECTION_ORDERS,
  type InjectionOrder,
  resolveHcaConfig,
} from "./hca-config.js";
export {
  type DeliveryListener,
  type HcaKinds,
  type HcaSetup,
  registerHcaEvents,
} from "./hca-setup.js";
export type { Message, MessageCompletion } from "./message.js";
export { ReceiveRate, type ReceiveRateStep } from "./receive-rate.js";
