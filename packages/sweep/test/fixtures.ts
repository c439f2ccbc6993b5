/** A four-host fabric that runs in milliseconds: the base scenario of the sweep tests. */
export const TINY = {
  name: "tiny",
  seed: 1,
  topology: { kind: "single-switch", hosts: 4 },
  traffic: [{ pattern: "uniform", loadFraction: 0.5 }],
  run: { durationUs: 40 },
  metrics: { binUs: 10 },
};
