import { describe, expect, it } from "vitest";
import { latencyBackAfterUs, throughputBackAfterUs } from "./onset-recovery.js";

const bins = (values: readonly number[], stepUs = 10, fromUs = 1000) =>
  new Map(values.map((v, i): [number, number] => [fromUs + i * stepUs, v]));

describe("throughputBackAfterUs", () => {
  it("gives when the series is back at the fraction of the level after its dip", () => {
    // Before the onset 4; a dip from 1020 to 1050, back from 1060.
    const series = bins([4, 4, 1, 1, 1, 1, 4, 4, 4, 4]);
    expect(throughputBackAfterUs(series, 1000, 4, 0.9, 10)).toBe(60);
    // Means over 20 µs: the mean from 1050 is (1 + 4) / 2, not back; from 1060 it is.
    expect(throughputBackAfterUs(series, 1000, 4, 0.9, 20)).toBe(60);
  });

  it("tells a series that never dips from one that never comes back", () => {
    expect(throughputBackAfterUs(bins([4, 3.9, 4.1]), 1000, 4, 0.9, 10)).toBeUndefined();
    expect(throughputBackAfterUs(bins([4, 1, 1]), 1000, 4, 0.9, 10)).toBe(Number.POSITIVE_INFINITY);
  });

  it("ignores bins before the onset", () => {
    const series = new Map([...bins([0, 0], 10, 980), ...bins([4, 1, 4])]);
    expect(throughputBackAfterUs(series, 1000, 4, 0.9, 10)).toBe(20);
  });
});

describe("latencyBackAfterUs", () => {
  const at = (startUs: number, fctUs: number) => ({ startUs, fctUs });

  it("gives the first window from which every later one is fast again", () => {
    const messages = [at(1010, 50), at(1110, 4), at(1210, 40), at(1310, 5), at(1410, 4)];
    // Window 1100–1200 is fast, but 1200–1300 is not: back from 1300.
    expect(latencyBackAfterUs(messages, 1000, 4, 1.25, 100, 1500)).toBe(300);
  });

  it("counts only whole windows up to the last start, and empty windows as not fast", () => {
    const messages = [at(1010, 50), at(1310, 4), at(1450, 100)];
    // 1400–1500 is not a whole window before 1450: the windows are 1000–1400.
    expect(latencyBackAfterUs(messages, 1000, 4, 1.25, 100, 1450)).toBe(300);
    expect(latencyBackAfterUs([at(1010, 50), at(1110, 50)], 1000, 4, 1.25, 100, 1200)).toBe(
      Number.POSITIVE_INFINITY,
    );
  });
});
