import type { CcPlugin, CcScheme } from "@cclab/fabric";
import { type DcqcnParams, params } from "./params.js";
import { receiverPartFactory } from "./receiver-part.js";
import { senderPartFactory } from "./sender-part.js";
import { switchPartFactory } from "./switch-part.js";

export {
  type DcqcnParams,
  markingProbability,
  PRESETS,
  type PresetName,
  params,
  paramsInput,
} from "./params.js";
export { createReceiverPart, receiverPartFactory } from "./receiver-part.js";
export { createSenderPart, senderPartFactory } from "./sender-part.js";
export { createSwitchPart, switchPartFactory } from "./switch-part.js";
export { TCD_CODE_COLUMN, TcdCode } from "./tcd-code.js";

/** The whole scheme with resolved parameters: switch, receiver and sender parts. */
export function dcqcnCc(p: DcqcnParams): CcScheme {
  return {
    // The TCD reaction's parts read a scheme column (contract 3.0).
    specVersion: p.tcdReaction ? "^3.0.0" : 2,
    name: "dcqcn",
    switchPart: switchPartFactory(p),
    receiverPart: receiverPartFactory(p),
    senderPart: senderPartFactory(p),
  };
}

/**
 * The scheme as a cclab plugin (`cc: { switch: { plugin: dcqcn }, hosts: [...] }` in a
 * scenario): `params` validates and resolves a scenario's parameters against the presets.
 */
export const dcqcnPlugin = {
  name: "dcqcn",
  description:
    "DCQCN (Zhu et al., SIGCOMM 2015): RED/ECN marking at switch egress, CNPs (paper) or CNP-flagged ACKs (nic), per-flow rate control with α, fast recovery, additive and hyper increase; with tcdReaction, hosts react to a TCD switch's codes (CE cuts, UE holds)",
  params,
  create: dcqcnCc,
} satisfies CcPlugin<typeof params>;

/** For `plugins:` in a scenario (the plugin is also built into cclab). */
export const ccPlugins = [dcqcnPlugin];
