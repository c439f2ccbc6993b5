export { PROFILE_SAMPLE_EVERY } from "@cclab/core-des";
export { TRAFFIC_PATTERNS } from "@cclab/traffic";
export { QUEUE_SERIES_FILE, type QueueSeriesInfo } from "./cc-queue-sampler.js";
export { kindProfileTable } from "./kind-profile.js";
export { estimateMemory, formatBytes, type MemoryEstimate } from "./memory-estimate.js";
export { TRACE_COLUMNS, TRACE_FILE, type TraceInfo } from "./packet-trace.js";
export { type ParamDoc, paramDocs } from "./param-docs.js";
export {
  type CcPlugin,
  ccPluginOrigin,
  ccPlugins,
  importPluginModules,
  loadPluginModules,
  registerCcPlugin,
} from "./plugins.js";
export { type PortEntry, PortMap, portName } from "./port-map.js";
export type { QueueValueLabelsJson } from "./queue-value-labels.js";
export {
  listedFiles,
  MANIFEST,
  markRunFailed,
  prepareResultDir,
  RESULT_FILES,
  RUN_STATES,
  type RunState,
  readRunState,
  recordFiles,
  removeIfEmpty,
  removeListedFiles,
  resultFiles,
  unfinishedRunMessage,
  writeResultFiles,
  writeResults,
} from "./results.js";
export { formatIssues, ScenarioError, type ScenarioIssue } from "./scenario/issues.js";
export {
  documentIssues,
  FORBIDDEN_KEYS,
  forbiddenKeyMessage,
  MAX_BINS,
  MAX_DEPTH,
  MAX_YAML_ALIASES,
  MIN_BIN_US,
} from "./scenario/limits.js";
export {
  applyOverrides,
  type LoadedScenarioFile,
  parseScenarioText,
  readScenarioFile,
} from "./scenario/load.js";
export {
  type CcAssignment,
  type Resolved,
  type ResolvedScenario,
  type ResolveOptions,
  resolveScenario,
  type TrafficEntry,
} from "./scenario/resolve.js";
export { scenarioSchema } from "./scenario/schema.js";
export {
  type Progress,
  prepare,
  RunFailure,
  type RunInfo,
  RunInterrupted,
  type SimulateOptions,
  type SimulationResult,
  simulate,
} from "./simulate.js";
export { type Summary, summaryJsonSchema, summarySchema } from "./summary.js";
export { flowTable, table, textSummary } from "./text-summary.js";
export { TOPOLOGY_KINDS, type TopologyKind } from "./topologies.js";
export {
  checkTraceOptions,
  DEFAULT_TRACE_MAX_ROWS,
  type TraceIssue,
  type TraceOptions,
  TraceOptionsError,
} from "./trace-filter.js";
export { SIMULATION_V8_FLAGS, tunedV8Flags, tuneV8ForSimulation } from "./v8-tuning.js";
