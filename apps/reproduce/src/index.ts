export type { Experiment, ExperimentOutcome, Finding } from "./experiment.js";
export type { ReportEntry } from "./report.js";
export { EXPERIMENTS, experimentIds, type ReproduceOptions, reproduce } from "./reproduce.js";
export { SCENARIOS_DIR } from "./scenario-file.js";
