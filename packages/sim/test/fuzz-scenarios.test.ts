/**
 * Fuzzing the validator (issue 34): 1,000 seeded mutations of the shipped scenarios (deleted
 * keys, wrong types, negative/zero/huge numbers, NaN-like strings, unicode, deep nesting, YAML
 * alias bombs, prototype keys, sparse --set indices, tiny binUs, garbage bytes) go through what
 * `cclab validate` runs. Every outcome is success or a ScenarioError, none takes 5 s, and
 * Object.prototype is untouched. apps/cli/test/fuzz-validate.test.ts runs some as processes.
 */
import { describe, expect, it } from "vitest";
import {
  applyOverrides,
  parseScenarioText,
  prepare,
  resolveScenario,
  ScenarioError,
} from "../src/index.js";
import { type Mutation, mutations } from "./fuzz-mutations.js";

const COUNT = 1000;
const SEED = 34;
const LIMIT_MS = 5000;

async function validate(m: Mutation): Promise<"ok" | "invalid"> {
  try {
    const document = applyOverrides(parseScenarioText(m.text, m.fileName), m.set);
    prepare(await resolveScenario(document, { baseDir: m.baseDir }));
    return "ok";
  } catch (error) {
    if (error instanceof ScenarioError) return "invalid";
    throw error;
  }
}

describe("fuzzed scenarios", () => {
  it(`${COUNT} mutations: success or a ScenarioError, each under ${LIMIT_MS / 1000} s`, async () => {
    const failures: string[] = [];
    const outcomes = { ok: 0, invalid: 0 };
    for (const [i, m] of mutations(COUNT, SEED).entries()) {
      const t0 = performance.now();
      try {
        outcomes[await validate(m)]++;
      } catch (error) {
        failures.push(`#${i} ${m.fileName}: ${m.what}: ${(error as Error).stack ?? error}`);
      }
      const ms = performance.now() - t0;
      if (ms > LIMIT_MS) failures.push(`#${i} ${m.fileName}: ${m.what}: took ${Math.round(ms)} ms`);
      if (Object.getOwnPropertyNames(Object.prototype).includes("polluted")) {
        failures.push(`#${i} ${m.fileName}: ${m.what}: polluted Object.prototype`);
        delete (Object.prototype as Record<string, unknown>).polluted;
      }
    }
    expect(failures).toEqual([]);
    // The mutations must reject most, and not all, of the cases.
    expect(outcomes.invalid).toBeGreaterThan(COUNT / 2);
    expect(outcomes.ok).toBeGreaterThan(0);
  }, 120_000);
});
