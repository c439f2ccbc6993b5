import type { CcScheme, SwitchPartFactory } from "@cclab/fabric";
import type { SwitchConfig } from "@cclab/fabric-switch";
import { Network, type NetworkOptions, type SwitchCcAssignment } from "@cclab/network";
import type { EgressMeter } from "./egress-meter.js";
import type { PacketTrace } from "./packet-trace.js";
import { ccPlugins } from "./plugins.js";
import { combineQueueValueLabels, type QueueValueLabelsJson } from "./queue-value-labels.js";
import { receiveRateSchedules } from "./scenario/receive-rates.js";
import type {
  CcAssignment,
  Resolved,
  SwitchCcAssignment as ResolvedSwitchCc,
} from "./scenario/resolve.js";

/** A scenario's network, with what its switch parts declare for the results. */
export interface BuiltNetwork {
  readonly network: Network;
  /**
   * The names of the values of the switch parts' per-queue variables (contract 3.4), combined
   * in the order the parts run, for `run.json`'s `queueSeries`.
   */
  readonly queueValueLabels: QueueValueLabelsJson;
}

/**
 * The network a resolved scenario describes. Throws the devices' own validation errors
 * (buffers, PFC headroom, routing), whose messages start with the field's path, and a `cc: `
 * line per malformed `queueValueLabels` of a switch part. An `egress` meter's switch part runs
 * on every switch after the scenario's own, and a `trace`'s after all.
 */
export function buildNetwork(
  { scenario, topology }: Resolved,
  egress?: EgressMeter,
  trace?: PacketTrace,
): BuiltNetwork {
  // `slMapping` is the runner's: it gives each message its SL as the traffic feed hands it over.
  // `receiveRates` become each host's own receive-rate schedule (docs/model.md, "Hosts").
  const { pfc: hostPfc, slMapping: _slMapping, receiveRates, ...host } = scenario.host;
  const hostReceiveRateSchedules = receiveRateSchedules(receiveRates, topology.fabric.hosts.length);
  const { queueing, vlWeights, pfc, ...sw } = scenario.switch;
  const occupancy = scenario.metrics.series.includes("port-occupancy");
  const switchConfig: Partial<SwitchConfig> = {
    ...sw,
    queueing: queueing as SwitchConfig["queueing"],
    ...(vlWeights === undefined ? {} : { vlWeights }),
    ...(pfc === undefined ? {} : { pfc }),
    // Occupancy series share the metrics bins (µs → ns).
    occupancyBinNs: occupancy ? Math.max(1, Math.round(scenario.metrics.binUs * 1000)) : null,
  };
  const { cc: scenarioCc, hostCc, switchCc } = schemesOf(scenario.cc, topology.fabric.hosts.length);
  // The scenario's switch parts in the order a switch runs them (the network's `cc`, then
  // `switchCc`), before the meter's and the trace's, which name no values.
  const queueValueLabels = combineQueueValueLabels(
    [scenarioCc, ...switchCc.map((a) => a.scheme)]
      .map((scheme) => scheme?.switchPart)
      .filter((factory): factory is SwitchPartFactory => factory !== undefined),
  );
  if (egress !== undefined) switchCc.push({ scheme: egress.scheme() });
  // A trace sees the drops of every switch part, and the packets after every part has.
  const cc = trace === undefined ? scenarioCc : trace.observeDrops(scenarioCc);
  if (trace !== undefined) {
    switchCc.forEach((a, i) => {
      switchCc[i] = { ...a, scheme: trace.observeDrops(a.scheme) };
    });
    switchCc.push({ scheme: trace.scheme() });
  }
  const options: NetworkOptions = {
    flowControl: scenario.flowControl,
    switch: switchConfig,
    host,
    seed: scenario.seed,
    // The collector keeps latency statistics with the warm-up; the hosts' own would be unused.
    hostLatencyStats: false,
    // The collector takes completions as they happen (a long run completes millions).
    keepCompletions: false,
    ...(hostPfc === undefined ? {} : { hostPfc }),
    ...(hostReceiveRateSchedules === undefined ? {} : { hostReceiveRateSchedules }),
    ...(cc === undefined ? {} : { cc }),
    ...(hostCc === undefined ? {} : { hostCc }),
    ...(switchCc.length === 0 ? {} : { switchCc }),
  };
  return { network: new Network(topology, options), queueValueLabels };
}

/**
 * The schemes of a scenario's CC assignments: the switch plugin's parts for every switch
 * (`cc`), or, with a list of switch plugins, the first for every switch when it runs on all
 * of them and sees every VL and the others as `switchCc`; and per host the scheme of its group
 * (`hostCc`). Each plugin's `create` is called once per assignment, so two groups with the
 * same plugin and other parameters differ.
 */
function schemesOf(
  assignments: Resolved["scenario"]["cc"],
  hostCount: number,
): {
  cc: CcScheme | undefined;
  hostCc: (CcScheme | undefined)[] | undefined;
  switchCc: SwitchCcAssignment[];
} {
  const registry = ccPlugins();
  const create = (a: { plugin: string; params: Readonly<Record<string, unknown>> }) =>
    registry.get(a.plugin)!.create(a.params);
  // Only the switch side of a switch plugin: its host parts run where cc.hosts says.
  const switchSide = (a: { plugin: string; params: Readonly<Record<string, unknown>> }) => {
    const { senderPart: _s, receiverPart: _r, ...side } = create(a);
    return side;
  };
  let cc: CcScheme | undefined;
  const switchCc: SwitchCcAssignment[] = [];
  const sw = assignments.switch;
  if (sw !== null && !Array.isArray(sw)) cc = switchSide(sw as CcAssignment);
  else if (sw !== null) {
    const list = sw as readonly ResolvedSwitchCc[];
    list.forEach((a, i) => {
      if (i === 0 && a.switches === "all" && a.vls === undefined) cc = switchSide(a);
      else {
        switchCc.push({
          scheme: switchSide(a),
          ...(a.switches === "all" ? {} : { switches: a.switches }),
          ...(a.vls === undefined ? {} : { vls: a.vls }),
        });
      }
    });
  }
  if (assignments.hosts.length === 0) return { cc, hostCc: undefined, switchCc };
  const hostCc = new Array<CcScheme | undefined>(hostCount).fill(undefined);
  for (const group of assignments.hosts) {
    const scheme = create(group);
    const members =
      group.hosts === "all" ? Array.from({ length: hostCount }, (_, i) => i) : group.hosts;
    for (const h of members) hostCc[h] = scheme;
  }
  return { cc, hostCc, switchCc };
}
