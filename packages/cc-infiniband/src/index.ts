import type { CcPlugin, CcScheme } from "@cclab/fabric";
import { type IbCcParams, params } from "./params.js";
import { receiverPartFactory } from "./receiver-part.js";
import { senderPartFactory } from "./sender-part.js";
import { switchPartFactory } from "./switch-part.js";

export {
  cctFromFormula,
  type IbCcParams,
  PRESET_DEFAULTS,
  PRESETS,
  type PresetName,
  params,
  paramsInput,
  thresholdsBytes,
} from "./params.js";
export { createReceiverPart, receiverPartFactory } from "./receiver-part.js";
export { createSenderPart, senderPartFactory } from "./sender-part.js";
export { createSwitchPart, switchPartFactory } from "./switch-part.js";

/** The whole scheme with resolved parameters: switch, receiver and sender parts. */
export function infinibandCc(p: IbCcParams): CcScheme {
  return {
    specVersion: 2,
    name: "infiniband",
    switchPart: switchPartFactory(p),
    receiverPart: receiverPartFactory,
    senderPart: senderPartFactory(p),
  };
}

/**
 * The scheme as a cclab plugin (`cc: { switch: { plugin: infiniband }, hosts: [...] }` in a
 * scenario): `params` validates and resolves a scenario's parameters against the presets.
 */
export const infinibandPlugin = {
  name: "infiniband",
  description:
    "InfiniBand CC (spec 1.2.1 A10): FECN marking at congested root ports, CNP/BECN, CCT injection throttling per QP or SL",
  params,
  create: infinibandCc,
} satisfies CcPlugin<typeof params>;

export const ccPlugins = [infinibandPlugin];
export default infinibandPlugin;
