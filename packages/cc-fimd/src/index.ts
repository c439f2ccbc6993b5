import type { CcPlugin, CcScheme } from "@cclab/fabric";
import { type FimdParams, params } from "./params.js";
import { receiverPartFactory } from "./receiver-part.js";
import { senderPartFactory } from "./sender-part.js";
import { switchPartFactory } from "./switch-part.js";

export { MarkingCounters } from "./marking.js";
export { type FimdParams, MARKINGS, type Marking, params, ROOTS, type Roots } from "./params.js";
export { createReceiverPart, receiverPartFactory } from "./receiver-part.js";
export {
  lowestUnflooredRate,
  RESPONSE_NAMES,
  type ResponseFunction,
  type ResponseName,
  type ResponseRates,
  responseFunction,
} from "./response.js";
export { createSenderPart, senderPartFactory } from "./sender-part.js";
export { Source, type SourceRules } from "./source.js";
export { createSwitchPart, switchPartFactory } from "./switch-part.js";

/**
 * The whole scheme with resolved parameters: switch marking, the destination's ACKs that echo
 * marks, and the window-limited rate-controlled sources.
 */
export function fimdCc(p: FimdParams): CcScheme {
  return {
    specVersion: "^3.0.0",
    name: `santos-${p.marking}-${p.response}`,
    switchPart: switchPartFactory(p),
    receiverPart: receiverPartFactory,
    senderPart: senderPartFactory(p),
  };
}

/**
 * The scheme as a cclab plugin (`cc: { switch: { plugin: fimd, params: { marking: input } },
 * hosts: [{ plugin: fimd, params: { response: fimd } }] }`).
 */
export const fimdPlugin = {
  name: "fimd",
  description:
    "Santos, Turner and Janakiraman's SAN congestion control: input-triggered (or naive, or input-output-triggered) ECN marking at input-buffered switches, ACKs that echo marks, and sources with a one-packet window and a rate set by the AIMD, FIMD or LIPD response function",
  params,
  create: fimdCc,
} satisfies CcPlugin<typeof params>;

/** For `plugins:` in a scenario (the plugin is also built into cclab). */
export const ccPlugins = [fimdPlugin];
