import { receiverPartFactory } from "@cclab/cc-infiniband";
import type { CcPlugin, CcScheme } from "@cclab/fabric";
import { type EcoccParams, params } from "./params.js";
import { senderPartFactory } from "./sender-part.js";
import { switchPartFactory } from "./switch-part.js";

export { InputLine, OutputCams, OutputLine } from "./cam.js";
export { type CcfitThresholds, NfqQueues } from "./ccfit-queues.js";
export {
  type EcoccRules,
  HotFlowQueues,
  type HotQueuesHost,
  type IsolatingQueues,
  type QueueEvent,
} from "./hot-queues.js";
export { memoryOf } from "./memory.js";
export {
  CONTROL_LANE,
  ECOCC_LANES,
  type EcoccMessage,
  MESSAGE_KIND,
  type MessageType,
  makeMessage,
  messageOf,
} from "./messages.js";
export {
  autoDListCap,
  DEFAULTS,
  dListCapFor,
  type EcoccParams,
  isolationOnly,
  normalQueue,
  params,
  paramsInput,
  type Variant,
} from "./params.js";
export { createSenderPart, senderPartFactory } from "./sender-part.js";
export { createSwitchPart, switchPartFactory } from "./switch-part.js";

/**
 * The whole scheme with resolved parameters: the switch part (hot-flow queues, CAMs and, for
 * ecocc, FECN marking), the hosts' stop-aware gates with (ecocc) InfiniBand throttling, and
 * (ecocc) the InfiniBand receiver that answers FECN with a BECN.
 */
export function ecoccCc(p: EcoccParams): CcScheme {
  return {
    specVersion: "^3.3.0",
    name: p.variant,
    switchPart: switchPartFactory(p),
    senderPart: senderPartFactory(p),
    ...(p.throttle === null ? {} : { receiverPart: receiverPartFactory }),
  };
}

/**
 * The scheme as a cclab plugin (`cc: { switch: { plugin: ecocc }, hosts: [{ plugin: ecocc }] }`
 * in a scenario; `params: { variant: hfdi }` for the isolation alone, `ccfit` or `fbicm` for
 * Paper V's queue organisation).
 */
export const ecoccPlugin = {
  name: "ecocc",
  description:
    "EcoCC (Gran thesis, Paper VI): hot flows isolated in hot-packet queues by CAM lines and allocate/stop/go/deallocate messages between neighbours, with InfiniBand injection throttling; variants hfdi (the isolation alone), ccfit (Paper V: one normal queue and congested-flow queues, with throttling) and fbicm (that isolation alone)",
  params,
  specVersion: "^3.3.0",
  create: ecoccCc,
} satisfies CcPlugin<typeof params>;

/** For `plugins:` in a scenario (the plugin is also built into cclab). */
export const ccPlugins = [ecoccPlugin];
