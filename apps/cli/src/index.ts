export { EXIT, type Io, main } from "./main.js";
export { progressLine } from "./progress.js";
