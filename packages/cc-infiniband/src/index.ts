import type { CcPlugin, CcScheme } from "@cclab/fabric";
import { type IbCcParams, params } from "./params.js";
import { receiverPartFactoryFor } from "./receiver-part.js";
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
export {
  createReceiverPart,
  receiverPartFactory,
  receiverPartFactoryFor,
} from "./receiver-part.js";
export { createSenderPart, senderPartFactory } from "./sender-part.js";
export { createSwitchPart, switchPartFactory } from "./switch-part.js";
export {
  TCD_CE,
  TCD_CODE_COLUMN,
  TCD_NONE,
  TCD_UE,
  type TcdCodeColumn,
  tcdCodeColumn,
} from "./tcd.js";
export { createTcdReceiverPart, tcdReceiverPartFactory } from "./tcd-receiver-part.js";

/**
 * The whole scheme with resolved parameters: switch, receiver and sender parts. With
 * `tcdReaction` the hosts react to a TCD switch's marks, which this scheme's own switch part
 * does not make: hosts of such a scheme go with another scheme's TCD switch part.
 */
export function infinibandCc(p: IbCcParams): CcScheme {
  return {
    specVersion: p.tcdReaction ? "^3.0.0" : 2,
    name: "infiniband",
    switchPart: switchPartFactory(p),
    receiverPart: receiverPartFactoryFor(p),
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
