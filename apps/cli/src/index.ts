export { EXIT, type Io, main } from "./main.js";
export { progressLine, sweepProgressLine } from "./progress.js";
