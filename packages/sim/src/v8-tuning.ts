import { setFlagsFromString } from "node:v8";

/**
 * V8 flags {@link simulate} sets for the process before a run: TurboFan's inlining budgets,
 * raised from their defaults (460 bytecodes per inlined function, 920 per optimised function).
 * The event handlers call many small methods (a switch's arrival: routing, buffer accounting,
 * queueing, arbitration), and with the defaults V8 stops inlining them partway: the calls that
 * remain cost their own instructions and make every typed array be read again after them.
 * Instructions per event of the JavaScript code (callgrind, same windows as the README's
 * tables, results identical): uniform256 1,701 → 1,499 (−12 %), uniform256-dcqcn 1,955 →
 * 1,661 (−15 %), the 648-node forest 2,180 → 2,007 (−8 %). V8's compiler does more work early
 * in a run in exchange; it runs on another core unless the process is pinned to one.
 */
export const SIMULATION_V8_FLAGS: readonly string[] = [
  "--max-inlined-bytecode-size=700",
  "--max-inlined-bytecode-size-cumulative=2400",
];

let applied: readonly string[] | undefined;

/**
 * Of {@link SIMULATION_V8_FLAGS}, those the process was not started with: a value given on
 * node's command line or in `NODE_OPTIONS` (`given`, as words; by default this process's, see
 * {@link startupArgs}) is the user's choice and stays. V8 reads `-` and `_` alike in flag names.
 */
export function flagsToSet(given: readonly string[] = startupArgs()): string[] {
  const names = new Set(given.filter((arg) => arg.startsWith("--")).map(flagName));
  return SIMULATION_V8_FLAGS.filter((flag) => !names.has(flagName(flag)));
}

/** The words node was started with that may hold V8 flags: its options and `NODE_OPTIONS`. */
function startupArgs(): string[] {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
}

// A flag's name, without its value, in one spelling.
function flagName(arg: string): string {
  return arg.split("=", 1)[0]!.replace(/_/g, "-");
}

/**
 * Sets {@link SIMULATION_V8_FLAGS} for this process, once (later calls change nothing), except
 * those node was started with; returns the flags set. They change how fast code runs, never
 * what it computes. {@link simulate} calls it unless told not to (`tuneV8: false`).
 */
export function tuneV8ForSimulation(): readonly string[] {
  if (applied !== undefined) return applied;
  const set = flagsToSet();
  for (const flag of set) setFlagsFromString(flag);
  applied = set;
  return set;
}

/** The flags {@link tuneV8ForSimulation} set in this process (none before it ran). */
export function tunedV8Flags(): readonly string[] {
  return applied ?? [];
}
