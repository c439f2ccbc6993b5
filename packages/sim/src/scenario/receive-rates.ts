import { MAX_TIME_US, usToPs } from "@cclab/core-des";
import type { Topology } from "@cclab/fabric";
import type { ReceiveRateStep } from "@cclab/fabric-hca";
import type { HostSection } from "./host.js";
import type { ScenarioIssue } from "./issues.js";

type ReceiveRates = NonNullable<HostSection["receiveRates"]>;

/**
 * The problems of `host.receiveRates` the schema cannot see: a host the topology does not have
 * (an index; an unknown name is reported where names are resolved), and two entries for one
 * host at the same time (which would leave its rate then to the order of the list). Times are
 * compared in ps, as the hosts will see them. Reads the entries as given (names resolved), so
 * these are listed even when other fields of the scenario do not parse; what the schema
 * rejects is skipped here.
 */
export function receiveRateIssues(value: unknown, topology: Topology | undefined): ScenarioIssue[] {
  if (!Array.isArray(value) || topology === undefined) return [];
  const hosts = topology.fabric.hosts;
  const issues: ScenarioIssue[] = [];
  // `host@ps` → the entry that set it.
  const seen = new Map<string, number>();
  value.forEach((entry: unknown, i) => {
    if (typeof entry !== "object" || entry === null) return;
    const { hosts: list, atUs = 0 } = entry as { hosts?: unknown; atUs?: unknown };
    if (!Array.isArray(list)) return;
    const timed = typeof atUs === "number" && atUs >= 0 && atUs <= MAX_TIME_US;
    list.forEach((h: unknown, j) => {
      if (typeof h !== "number" || !Number.isInteger(h) || h < 0) return;
      const path = `host.receiveRates[${i}].hosts[${j}]`;
      if (h >= hosts.length) {
        issues.push({ path, message: `${h} is not a host (0..${hosts.length - 1})` });
        return;
      }
      if (!timed) return;
      const key = `${h}@${usToPs(atUs)}`;
      const before = seen.get(key);
      if (before !== undefined) {
        issues.push({
          path,
          message: `host ${hosts[h]!.name} already has a rate at ${atUs} µs (host.receiveRates[${before}]); give each host one rate per time`,
        });
      } else seen.set(key, i);
    });
  });
  return issues;
}

/**
 * Per host index, its receive-rate schedule in time order (undefined: none), as
 * `host.receiveRates` gives it; undefined when no host has one. Entries the validation rejects
 * (unknown hosts, a second rate at one time) are left out, so a scenario with other problems
 * still builds for the devices' own checks.
 */
export function receiveRateSchedules(
  entries: ReceiveRates | undefined,
  hostCount: number,
): (ReceiveRateStep[] | undefined)[] | undefined {
  if (entries === undefined || entries.length === 0) return undefined;
  const schedules = new Array<ReceiveRateStep[] | undefined>(hostCount).fill(undefined);
  for (const { hosts, receiveRateGbps, atUs } of entries) {
    const atPs = usToPs(atUs);
    for (const h of hosts) {
      if (h >= hostCount) continue;
      const steps = schedules[h] ?? [];
      schedules[h] = steps;
      if (!steps.some((s) => s.atPs === atPs)) steps.push({ atPs, rateGbps: receiveRateGbps });
    }
  }
  for (const steps of schedules) steps?.sort((a, b) => a.atPs - b.atPs);
  return schedules;
}
