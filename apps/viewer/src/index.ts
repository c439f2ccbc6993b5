export { Catalog, classifyDir } from "./data/catalog.js";
export { downsample } from "./data/downsample.js";
export { EXPORT_GLOBAL } from "./data/export-global.js";
export type { PortRates } from "./data/run-dir.js";
export { isSafeName, SafeDir } from "./data/safe-path.js";
export type * from "./data/types.js";
export { exportViewer } from "./server/export.js";
export { startServer, type ViewerServer } from "./server/server.js";
