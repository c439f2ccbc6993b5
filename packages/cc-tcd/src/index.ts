import type { CcPlugin, CcScheme } from "@cclab/fabric";
import { params, type TcdParams } from "./params.js";
import { switchPartFactory } from "./switch-part.js";

export {
  type CeRule,
  infinibandRule,
  redProbability,
  redRule,
  thresholdBytesOf,
} from "./ce-rule.js";
export { TCD_CODE_COLUMN, TcdCode, withMark } from "./codes.js";
export { createNpEcnSwitchPart, type NpEcnSwitchPart } from "./np-ecn-switch-part.js";
export {
  DEFAULTS,
  type InfinibandRuleParams,
  params,
  paramsInput,
  type RedParams,
  type TcdParams,
} from "./params.js";
export { NP_ECN_SEQ_COLUMN, PausedPackets } from "./paused-packets.js";
export { createSwitchPart, switchPartFactory, type TcdSwitchPart } from "./switch-part.js";
export {
  type CeDecision,
  TCD_STATE_LABELS,
  TCD_STATE_NAMES,
  TcdQueue,
  type TcdQueueConfig,
  TcdState,
} from "./tcd-queue.js";

/**
 * TCD as a scheme: the detector only (a switch part). The reactions to UE and CE are host parts
 * of other packages (DCQCN for ceRule red, IB CC for ceRule infiniband), chosen in the scenario.
 * With ceRule np-ecn the switch part is PCN's NP-ECN baseline, for DCQCN hosts (with or without
 * their `npEcnReceiver`).
 */
export function tcdCc(p: TcdParams): CcScheme {
  return { specVersion: "^3.0.0", name: "tcd", switchPart: switchPartFactory(p) };
}

/**
 * The detector as a cclab plugin: `cc: { switch: { plugin: tcd }, hosts: [{ plugin: dcqcn }] }`
 * in a scenario (ceRule red, the default), or with `params: { ceRule: infiniband }` and
 * `hosts: [{ plugin: infiniband }]`.
 */
export const tcdPlugin = {
  name: "tcd",
  description:
    "Ternary Congestion Detection (Zhang et al., SIGCOMM 2021), switch side: per egress queue NC/C/U from ON-OFF periods (max T_on) and the queue's trend; UE and CE marks in the tcd.code column, both also in the ECN field (ceRule red), CE also as FECN (ceRule infiniband); per-queue state and marks for the cc-queues series; ceRule np-ecn runs PCN's NP-ECN baseline instead (RED CE only once no packet of the port's last paused period is queued)",
  params,
  specVersion: "^3.0.0",
  create: tcdCc,
} satisfies CcPlugin<typeof params>;

/** For `plugins:` in a scenario (the plugin is also built into cclab). */
export const ccPlugins = [tcdPlugin];
