import type { CcPlugin, CcScheme } from "@cclab/fabric";
import { params, type SrpParams } from "./params.js";
import { receiverPartFactory } from "./receiver-part.js";
import { senderPartFactory } from "./sender-part.js";
import { switchPartFactory } from "./switch-part.js";

export {
  COLUMN,
  REPLY_LANE,
  RESERVATION_LANE,
  SPECULATIVE_LANE,
  SRP_LANES,
} from "./lanes.js";
export { DEFAULTS, params, type SrpParams } from "./params.js";
export { receiverPartFactory, SrpInOrderReceiver, SrpReceiver } from "./receiver-part.js";
export { SendQueue, SRP_TIMER_KIND } from "./send-queue.js";
export { SrpSender, senderPartFactory } from "./sender-part.js";
export { createSwitchPart, switchPartFactory } from "./switch-part.js";

/** The whole scheme with resolved parameters: switch, destination and source parts. */
export function srpCc(p: SrpParams): CcScheme {
  return {
    specVersion: p.dropCheck === "until-room" ? "^3.5.0" : p.inOrder ? "^3.2.0" : "^3.1.0",
    name: "srp",
    switchPart: switchPartFactory(p),
    receiverPart: receiverPartFactory(p),
    senderPart: senderPartFactory(p),
  };
}

/**
 * The scheme as a cclab plugin (`cc: { switch: { plugin: srp }, hosts: [{ plugin: srp }] }` in
 * a scenario).
 */
export const srpPlugin = {
  name: "srp",
  description:
    "Speculative Reservation Protocol (Jiang et al., HPCA 2012): destination reservations with start times, speculative packets on a low-priority lane dropped past their time-to-wait, NACKs and resends",
  params,
  specVersion: "^3.1.0",
  create: srpCc,
} satisfies CcPlugin<typeof params>;

/** For `plugins:` in a scenario (the plugin is also built into cclab). */
export const ccPlugins = [srpPlugin];
