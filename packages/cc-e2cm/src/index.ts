import type { CcPlugin, CcScheme } from "@cclab/fabric";
import { type E2cmParams, params } from "./params.js";
import { receiverPartFactory } from "./receiver-part.js";
import { senderPartFactory } from "./sender-part.js";
import { switchPartFactory } from "./switch-part.js";

export { BcnType, COLUMN, cpidOf } from "./frames.js";
export {
  type E2cmParams,
  feedback,
  type Gains,
  gains,
  PRESETS,
  type PresetName,
  params,
  paramsInput,
} from "./params.js";
export { RateLimiter } from "./rate-limiter.js";
export { ReactionPoint } from "./reaction-point.js";
export { createReceiverPart, receiverPartFactory } from "./receiver-part.js";
export { createSenderPart, senderPartFactory } from "./sender-part.js";
export { createSwitchPart, switchPartFactory } from "./switch-part.js";

/**
 * The whole scheme with resolved parameters: the BCN congestion point, the reaction point
 * and, in mode `e2cm`, the destination that returns probes.
 */
export function e2cmCc(p: E2cmParams): CcScheme {
  return {
    specVersion: "^3.0.0",
    name: p.mode,
    switchPart: switchPartFactory(p),
    senderPart: senderPartFactory(p),
    ...(p.mode === "e2cm" ? { receiverPart: receiverPartFactory(p) } : {}),
  };
}

/**
 * The scheme as a cclab plugin (`cc: { switch: { plugin: e2cm }, hosts: [{ plugin: e2cm,
 * params: { mode: bcn } }] }`): `params` validates and resolves a scenario's parameters
 * against the presets.
 */
export const e2cmPlugin = {
  name: "e2cm",
  description:
    "BCN (IEEE 802.1Qau proposal) and IBM's E2CM: switches sample arriving frames and send BCN feedback (Qoff, Qdelta) to the source; sources keep a rate limiter per slowed flow (AIMD); E2CM adds per-flow probes that the destination stamps with latency and rate, and a per-flow AIMD on the path queue (Little's law)",
  params,
  create: e2cmCc,
} satisfies CcPlugin<typeof params>;

/** For `plugins:` in a scenario (the plugin is also built into cclab). */
export const ccPlugins = [e2cmPlugin];
