import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RunFailure, resolveScenario, ScenarioError, simulate } from "../src/index.js";

// Issue 34: invariants checked during the run, not only at its end. The fixture's switch part
// breaks credit conservation on S0's port to H1 with the first packet (about 0.3 µs) and, in
// its repaired variant, restores it with the second packet, sent at 200 µs.
const BREAKER = fileURLToPath(new URL("./fixtures/invariant-breaking-plugin.ts", import.meta.url));

const scenario = (plugin: string, checkInvariants?: string) => ({
  name: "invariants-during-run",
  plugins: [BREAKER],
  topology: { kind: "single-switch", hosts: 3, rateGbps: 10, latencyNs: 100 },
  traffic: [
    {
      pattern: "scheduled",
      flows: [
        { src: 0, dst: 1, totalBytes: 1024, messageBytes: 1024 },
        { src: 2, dst: 1, startNs: 200_000, totalBytes: 1024, messageBytes: 1024 },
      ],
    },
  ],
  run: { durationUs: 400, ...(checkInvariants === undefined ? {} : { checkInvariants }) },
  cc: { switch: { plugin } },
});

const PLACE = /link \d+ \(switch S0 port 1 → host H1\) VL 0 at \d+ ps: held /;

async function failure(plugin: string, mode?: string): Promise<RunFailure> {
  const error = await simulate(scenario(plugin, mode)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunFailure);
  return error as RunFailure;
}

/** The simulated time, µs, at which the message says the violation was seen. */
const seenUs = (error: Error) => Number(/ at (\d+(?:\.\d+)?) µs/.exec(error.message)?.[1]);

describe("run.checkInvariants", () => {
  it("defaults to periodic and accepts end, periodic and every-event only", async () => {
    const resolved = await resolveScenario(scenario("broken-size"));
    expect(resolved.scenario.run.checkInvariants).toBe("periodic");
    const error = await resolveScenario(scenario("broken-size", "sometimes")).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as ScenarioError).issues).toEqual([
      expect.objectContaining({ path: "run.checkInvariants" }),
    ]);
    expect((error as ScenarioError).message).toContain('"end", "periodic", "every-event"');
  });

  it("end: a violation that repairs itself before the end passes (the blind spot)", async () => {
    const result = await simulate(scenario("broken-size-repaired", "end"));
    expect(result.summary.status).toBe("time-reached");
    expect(result.summary.totals.deliveredBytes).toBe(2048);
  });

  it("every-event: fails after the event that broke it, naming invariant, time and place", async () => {
    const error = await failure("broken-size-repaired", "every-event");
    expect(error.message).toMatch(
      /^invariant broken: credit conservation, seen after the event at \d+(\.\d+)? µs: /,
    );
    expect(error.message).toMatch(PLACE);
    // The first packet leaves S0 well within the first microsecond, long before the repair.
    expect(seenUs(error)).toBeGreaterThan(0);
    expect(seenUs(error)).toBeLessThan(1);
    expect(error.message).toContain(`at ${Math.round(seenUs(error) * 1e6)} ps`);
  });

  it("periodic (the default): fails at the end of the first slice after it broke", async () => {
    for (const mode of ["periodic", undefined]) {
      const error = await failure("broken-size-repaired", mode);
      expect(error.message).toMatch(
        /^invariant broken: credit conservation, seen at the end of the slice ending at \d+(\.\d+)? µs: /,
      );
      expect(error.message).toMatch(PLACE);
      expect(seenUs(error)).toBeGreaterThan(0);
      expect(seenUs(error)).toBeLessThan(200);
    }
  });

  it("a violation that lasts fails in every mode, at the end with end", async () => {
    const end = await failure("broken-size", "end");
    expect(end.message).toMatch(
      /^invariant broken: credit conservation, seen at the end of the run, 400 µs: /,
    );
    expect(end.message).toMatch(PLACE);
    const periodic = await failure("broken-size", "periodic");
    expect(periodic.message).toMatch(/seen at the end of the slice ending at .* µs: /);
    expect(seenUs(periodic)).toBeLessThan(200);
    const everyEvent = await failure("broken-size", "every-event");
    expect(everyEvent.message).toMatch(/seen after the event at .* µs: /);
    expect(everyEvent.message).toMatch(PLACE);
  });

  it("every-event passes a correct run with the same results as end", async () => {
    const correct = (mode: string) => ({
      ...scenario("broken-size", mode),
      plugins: [],
      cc: undefined,
    });
    const end = await simulate(correct("end"));
    const every = await simulate(correct("every-event"));
    expect(every.summary).toEqual(end.summary);
  });
});
