import { describe, expect, it } from "vitest";
import { queueSeriesNote } from "../src/queue-series-note.js";

describe("queueSeriesNote", () => {
  const info = { file: "cc-queues.csv", queues: 2, maxQueues: 2, capped: true, omittedQueues: 3 };

  it("says on stderr that metrics.maxQueueSeries cut the cc-queues series, and by how much", () => {
    expect(queueSeriesNote(info)).toBe(
      "cclab run: cc-queues.csv holds the first 2 queues a switch part reported only; 3 more were left out (metrics.maxQueueSeries 2; raise it to see them)\n",
    );
  });

  it("says nothing for a series the cap did not cut, or a run without one", () => {
    expect(queueSeriesNote({ ...info, capped: false, omittedQueues: 0 })).toBeUndefined();
    expect(queueSeriesNote(undefined)).toBeUndefined();
  });
});
