export {
  type FoldedClos648Options,
  foldedClos648,
} from "./builders/folded-clos-648.js";
export {
  fromFile,
  type GenericEndpointSpec,
  type GenericHostSpec,
  type GenericLinkSpec,
  type GenericNodeSpec,
  type GenericSwitchSpec,
  type GenericTopologySpec,
  genericTopology,
} from "./builders/generic-topology.js";
export {
  ECOCC_LINK_DEFAULTS,
  type KaryNTreeOptions,
  karyNTree,
  MAX_TREE_HOSTS,
} from "./builders/kary-n-tree.js";
export { type ParkingLotOptions, parkingLot } from "./builders/parking-lot.js";
export { type SingleSwitchOptions, singleSwitch } from "./builders/single-switch.js";
export {
  SRP_LINK_DEFAULTS,
  type SrpCongestionNetwork,
  type SrpCongestionNetworkOptions,
  type SrpHostName,
  type SrpLinkName,
  srpCongestionNetwork,
} from "./builders/srp-congestion-network.js";
export {
  SRP_FAT_TREE_256,
  type TwoLevelFatTreeOptions,
  twoLevelFatTree,
  UNIFORM256_LEAF_SPINE,
} from "./builders/two-level-fat-tree.js";
export {
  GRAN_LINK_DEFAULTS,
  type TestbedHostName,
  type TwoSwitchTestbed,
  type TwoSwitchTestbedOptions,
  twoSwitchTestbed,
} from "./builders/two-switch-testbed.js";
export { hostByName, switchByName } from "./host-by-name.js";
export { GENERIC_LINK_DEFAULTS, type LinkOptions } from "./options.js";
export { MAX_TABLE_ENTRIES } from "./routing/candidate-lists.js";
export {
  checkRouting,
  findRoutingProblem,
  type RoutingCheck,
  RoutingError,
  type RoutingProblem,
} from "./routing/check-routing.js";
export { dModK } from "./routing/d-mod-k.js";
export { ecmpHashed } from "./routing/ecmp-hashed.js";
export { ncaRandomUp } from "./routing/nca-random-up.js";
export { ROUTING_NAMES, type RoutingName, routingByName } from "./routing/routing-by-name.js";
export { type ShortestPathOptions, shortestPath } from "./routing/shortest-path.js";
export { type CandidateChooser, type RouteHop, traceRoute } from "./routing/trace-route.js";
export { type PortPeer, type Wiring, wiringOf } from "./wiring.js";
