export {
  type DeliveryListener,
  flowEndpoints,
  flowIdOf,
  Hca,
  type HcaKinds,
  type HcaSetup,
  type Message,
  type MessageCompletion,
  registerHcaEvents,
} from "./hca.js";
export {
  DEFAULT_HCA_CONFIG,
  type HcaConfig,
  INJECTION_ORDERS,
  type InjectionOrder,
  resolveHcaConfig,
} from "./hca-config.js";
