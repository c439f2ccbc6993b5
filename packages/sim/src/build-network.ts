import type { CcScheme } from "@cclab/fabric";
import type { SwitchConfig } from "@cclab/fabric-switch";
import { Network, type NetworkOptions } from "@cclab/network";
import { ccPlugins } from "./plugins.js";
import type { Resolved } from "./scenario/resolve.js";

/**
 * The network a resolved scenario describes. Throws the devices' own validation errors
 * (buffers, PFC headroom, routing), whose messages start with the field's path.
 */
export function buildNetwork({ scenario, topology }: Resolved): Network {
  const { pfc: hostPfc, ...host } = scenario.host;
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
  const cc = schemeOf(scenario.cc);
  const options: NetworkOptions = {
    flowControl: scenario.flowControl,
    switch: switchConfig,
    host,
    seed: scenario.seed,
    ...(hostPfc === undefined ? {} : { hostPfc }),
    ...(cc === undefined ? {} : { cc }),
  };
  return new Network(topology, options);
}

/**
 * One scheme for the whole fabric from the scenario's assignments. The network runs one
 * scheme's host parts on every host, so host groups must cover all hosts with one plugin.
 */
function schemeOf(cc: Resolved["scenario"]["cc"]): CcScheme | undefined {
  if (cc.switch === null && cc.hosts.length === 0) return undefined;
  const registry = ccPlugins();
  const switchScheme =
    cc.switch === null ? undefined : registry.get(cc.switch.plugin)!.create(cc.switch.params);
  if (cc.hosts.length > 1 || (cc.hosts.length === 1 && cc.hosts[0]!.hosts !== "all")) {
    throw new RangeError(
      'cc.hosts: one group with hosts "all" is supported for now (the network runs one host scheme on every host)',
    );
  }
  const group = cc.hosts[0];
  const hostScheme =
    group === undefined ? undefined : registry.get(group.plugin)!.create(group.params);
  const name = [switchScheme?.name, hostScheme?.name].filter((n) => n !== undefined).join("+");
  const parts = {
    switchPart: switchScheme?.switchPart,
    queueingPart: switchScheme?.queueingPart,
    senderPart: hostScheme?.senderPart,
    receiverPart: hostScheme?.receiverPart,
  };
  return {
    specVersion: (hostScheme ?? switchScheme)!.specVersion,
    name,
    ...Object.fromEntries(Object.entries(parts).filter(([, part]) => part !== undefined)),
  };
}
