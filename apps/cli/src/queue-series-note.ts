import type { QueueSeriesInfo } from "@cclab/sim";

/**
 * What to say on stderr at the end of a run whose `cc-queues` series `metrics.maxQueueSeries`
 * cut; undefined otherwise (run.json's `queueSeries` says the same).
 */
export function queueSeriesNote(info: QueueSeriesInfo | undefined): string | undefined {
  if (info === undefined || !info.capped) return undefined;
  return `cclab run: ${info.file} holds the first ${info.queues} queues a switch part reported only; ${info.omittedQueues} more were left out (metrics.maxQueueSeries ${info.maxQueues}; raise it to see them)\n`;
}
