export type { SwitchCcAssignment } from "./cc-plan.js";
export { FlowMeter } from "./flow-meter.js";
export { IdealFct, type IdealFctParams } from "./ideal-fct.js";
export { bufferOverflowViolation, creditConservationViolation } from "./invariants.js";
export { Network, type NetworkOptions } from "./network.js";
