import { describe, expect, it } from "vitest";
import { TcdCode } from "./codes.js";
import { TcdQueue, type TcdQueueConfig, TcdState } from "./tcd-queue.js";

const US = 1_000_000;
const CONFIG: TcdQueueConfig = {
  maxTonPs: 40 * US,
  checkPeriodPs: 40 * US,
  growBytes: 900,
  drainedBytes: 2060,
  truncateTonToUs: false,
};
const NEVER = Number.NEGATIVE_INFINITY;

/** A queue that was resumed at `resumePs` with `qAtResume` bytes, then dequeued once in U. */
function inU(resumePs = 0, qAtResume = 10_000, config = CONFIG): TcdQueue {
  const q = new TcdQueue(config);
  q.noteResume(resumePs, qAtResume);
  expect(q.dequeue(resumePs + US, qAtResume, resumePs, false)).toBe(TcdCode.Undetermined);
  expect(q.state).toBe(TcdState.U);
  return q;
}

describe("TCD queue state machine (reference DequeueAndTransmit)", () => {
  it("starts in NC and never enters U without a resume", () => {
    const q = new TcdQueue(CONFIG);
    expect(q.state).toBe(TcdState.NC);
    for (let t = 0; t < 200; t++) q.dequeue(t * US, 50_000, NEVER, false);
    expect(q.state).toBe(TcdState.NC);
  });

  describe("Step 1: within max(T_on) of a resume", () => {
    it("marks every packet UE, whatever the CE rule says, up to and at max(T_on)", () => {
      const q = new TcdQueue(CONFIG);
      let asked = 0;
      for (const t of [0, 1, 20 * US, 40 * US]) {
        const mark = q.dequeue(t, 100_000, 0, () => {
          asked++;
          return true;
        });
        expect(mark).toBe(TcdCode.Undetermined);
        expect(q.state).toBe(TcdState.U);
      }
      expect(asked).toBe(0);
    });

    it("enters U from C and from NC", () => {
      const q = new TcdQueue(CONFIG);
      expect(q.dequeue(0, 10_000, NEVER, true)).toBe(TcdCode.Congestion);
      expect(q.state).toBe(TcdState.C);
      expect(q.dequeue(2 * US, 10_000, US, true)).toBe(TcdCode.Undetermined);
      expect(q.state).toBe(TcdState.U);
    });

    it("a new resume restarts Step 1, from C, CHECK or NC", () => {
      for (const leave of ["c", "check", "nc"] as const) {
        const q = inU(0, 10_000);
        const after = 45 * US;
        q.dequeue(after, leave === "c" ? 10_000 : 5_000, 0, true); // C, else CHECK
        if (leave === "nc") q.dequeue(after + US, 1_000, 0, false);
        expect(q.state).toBe(
          leave === "c" ? TcdState.C : leave === "check" ? TcdState.Check : TcdState.NC,
        );
        // Paused again and resumed at 100 µs: back in U at once.
        expect(q.dequeue(100 * US, 3_000, 100 * US, true)).toBe(TcdCode.Undetermined);
        expect(q.state).toBe(TcdState.U);
        expect(q.lastResumePs).toBe(100 * US);
        expect(q.qAtResumeBytes).toBe(3_000);
      }
    });

    it("stays U through an ON-OFF episode whose ON periods are all shorter than max(T_on)", () => {
      const q = new TcdQueue(CONFIG);
      for (let k = 0; k < 10; k++) {
        const resume = k * 30 * US;
        for (let t = resume; t < resume + 25 * US; t += 5 * US) {
          expect(q.dequeue(t, 8_000, resume, true)).toBe(TcdCode.Undetermined);
        }
      }
      expect(q.state).toBe(TcdState.U);
    });
  });

  describe("Step 2: leaving U", () => {
    it("U → C when the queue did not fall below its length at the resume; CE by the rule", () => {
      const q = inU(0, 10_000);
      expect(q.dequeue(41 * US, 10_000, 0, true)).toBe(TcdCode.Congestion);
      expect(q.state).toBe(TcdState.C);
      const r = inU(0, 10_000);
      expect(r.dequeue(41 * US, 12_000, 0, false)).toBe(TcdCode.None);
      expect(r.state).toBe(TcdState.C);
    });

    it("U → CHECK when the queue shrank; CHECK starts its period there and marks nothing", () => {
      const q = inU(0, 10_000);
      expect(q.dequeue(41 * US, 9_999, 0, true)).toBe(TcdCode.None);
      expect(q.state).toBe(TcdState.Check);
      expect(q.checkTimePs).toBe(41 * US);
      expect(q.checkQBytes).toBe(9_999);
    });

    it("compares T_on strictly: at exactly max(T_on) it is still Step 1", () => {
      const q = inU(0, 10_000);
      expect(q.dequeue(40 * US, 10_000, 0, true)).toBe(TcdCode.Undetermined);
      expect(q.dequeue(40 * US + 1, 10_000, 0, true)).toBe(TcdCode.Congestion);
    });
  });

  describe("Step 3: CHECK", () => {
    function inCheck(): TcdQueue {
      const q = inU(0, 10_000);
      q.dequeue(41 * US, 8_000, 0, true);
      expect(q.state).toBe(TcdState.Check);
      return q;
    }

    it("marks nothing, even when the CE rule would, within the period", () => {
      const q = inCheck();
      let asked = 0;
      for (let t = 42; t < 81; t++) {
        expect(
          q.dequeue(t * US, 50_000, 0, () => {
            asked++;
            return true;
          }),
        ).toBe(TcdCode.None);
      }
      expect(q.state).toBe(TcdState.Check);
      expect(asked).toBe(0);
    });

    it("CHECK → NC at once when the queue drains to DRAINED bytes", () => {
      const q = inCheck();
      q.dequeue(50 * US, 2_061, 0, true);
      expect(q.state).toBe(TcdState.Check);
      expect(q.dequeue(51 * US, 2_060, 0, true)).toBe(TcdCode.None);
      expect(q.state).toBe(TcdState.NC);
    });

    it("CHECK → C after a period in which the queue grew by GROW bytes or more; CE by the rule", () => {
      const q = inCheck();
      expect(q.dequeue(81 * US, 8_000 + 900, 0, true)).toBe(TcdCode.Congestion);
      expect(q.state).toBe(TcdState.C);
    });

    it("restarts the period when the queue grew by less than GROW", () => {
      const q = inCheck();
      expect(q.dequeue(81 * US, 8_899, 0, true)).toBe(TcdCode.None);
      expect(q.state).toBe(TcdState.Check);
      expect(q.checkTimePs).toBe(81 * US);
      expect(q.checkQBytes).toBe(8_899);
      // One period later the growth is measured from 8,899 bytes.
      expect(q.dequeue(121 * US, 9_798, 0, true)).toBe(TcdCode.None);
      expect(q.dequeue(161 * US, 9_798 + 900, 0, false)).toBe(TcdCode.None);
      expect(q.state).toBe(TcdState.C);
    });

    it("ends in NC at a period's end when the queue is also drained", () => {
      const q = inCheck();
      q.dequeue(81 * US, 1_000, 0, true);
      expect(q.state).toBe(TcdState.NC);
    });

    it("uses checkPeriodPs, not maxTonPs, for the trend period", () => {
      const q = inU(0, 10_000, { ...CONFIG, checkPeriodPs: 10 * US });
      q.dequeue(41 * US, 8_000, 0, true);
      expect(q.dequeue(51 * US, 9_000, 0, true)).toBe(TcdCode.Congestion);
    });
  });

  describe("Step 4: NC and C as in a lossy network", () => {
    it("follows the CE rule's outcome packet by packet", () => {
      const q = new TcdQueue(CONFIG);
      expect(q.dequeue(0, 0, NEVER, true)).toBe(TcdCode.Congestion);
      expect(q.state).toBe(TcdState.C);
      expect(q.dequeue(1, 0, NEVER, false)).toBe(TcdCode.None);
      expect(q.state).toBe(TcdState.NC);
      expect(q.dequeue(2, 0, NEVER, () => true)).toBe(TcdCode.Congestion);
      expect(q.state).toBe(TcdState.C);
    });
  });

  it("records qAtResume once per resume, from the first length it is told", () => {
    const q = new TcdQueue(CONFIG);
    q.noteResume(5 * US, 7_000);
    q.noteResume(5 * US, 9_000); // later change of the same resume: not a new one
    expect(q.qAtResumeBytes).toBe(7_000);
    q.dequeue(6 * US, 1_000, 5 * US, false);
    expect(q.qAtResumeBytes).toBe(7_000);
  });

  it("truncates each instant to whole microseconds when asked, as the reference", () => {
    const config = { ...CONFIG, truncateTonToUs: true };
    // Resumed at 0.9 µs (0 in whole µs); at 40.95 µs (40) T_on is 40: still Step 1.
    const q = inU(0.9 * US, 10_000, config);
    expect(q.dequeue(40.95 * US, 10_000, 0.9 * US, true)).toBe(TcdCode.Undetermined);
    // Without truncation 40.05 µs > 40 µs: Step 2.
    const r = inU(0.9 * US, 10_000);
    expect(r.dequeue(40.95 * US, 10_000, 0.9 * US, true)).toBe(TcdCode.Congestion);
    // At 41.0 µs (41): left.
    expect(q.dequeue(41 * US, 10_000, 0.9 * US, true)).toBe(TcdCode.Congestion);
  });

  it("sums the time spent in each state, the current stay included", () => {
    const q = new TcdQueue(CONFIG);
    q.dequeue(10 * US, 0, NEVER, false); // NC since 0
    q.dequeue(20 * US, 0, 20 * US, false); // U from 20 µs
    q.dequeue(70 * US, 0, 20 * US, false); // T_on 50 µs, queue 0 ≥ qAtResume 0: C
    expect(q.state).toBe(TcdState.C);
    expect(q.timeInStatePs(TcdState.NC, 100 * US)).toBe(20 * US);
    expect(q.timeInStatePs(TcdState.U, 100 * US)).toBe(50 * US);
    expect(q.timeInStatePs(TcdState.C, 100 * US)).toBe(30 * US);
    expect(q.timeInStatePs(TcdState.Check, 100 * US)).toBe(0);
  });
});
