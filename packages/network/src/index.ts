export { FlowMeter } from "./flow-meter.js";
export { bufferOverflowViolation, creditConservationViolation } from "./invariants.js";
export { Network, type NetworkOptions } from "./network.js";
