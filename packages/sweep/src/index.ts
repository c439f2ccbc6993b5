export {
  crashOutcome,
  DEFAULT_WORKER_FILE,
  defaultThreads,
  type OutcomeSink,
  type PoolOptions,
  runOnThreads,
} from "./local-pool.js";
export {
  checkOutcome,
  checkTask,
  pointOutcomeSchema,
  pointTaskSchema,
  RESULT_FILE_NAMES,
} from "./point-data.js";
export { axisValues, expandPoints, MAX_POINTS, type SweepPoint, sweepSeeds } from "./points.js";
export {
  checkRedisUrl,
  DEFAULT_QUEUE,
  jobIdOf,
  probeRedis,
  type RedisCoordinatorOptions,
  RedisUnavailableError,
  type RedisWorkerOptions,
  redactUrl,
  runOnRedis,
  runRedisWorker,
} from "./redis.js";
export { type PointOutcome, type PointTask, runPoint } from "./run-point.js";
export {
  runSweep,
  type SweepOptions,
  type SweepProgress,
  type SweepReport,
} from "./sweep.js";
export { defaultPlotMetrics, sweepFigures } from "./sweep-figures.js";
export {
  type LoadedSweep,
  readSweepFile,
  SweepError,
  type SweepFile,
  sweepSchema,
} from "./sweep-file.js";
export {
  BASE_COLUMNS,
  GROUP_FIELDS,
  metricColumns,
  type PointRecord,
  summaryValue,
  sweepCsv,
} from "./table.js";
