export {
  assertSpecVersion,
  type CcObservable,
  type CcScheme,
  type FlowGate,
  type FlowInfo,
  FROM_OUTPUT_BUFFER,
  FROM_SWITCH_CONTROL,
  type HostPartContext,
  LINK_LOCAL,
  type PartServices,
  type PortView,
  type ReceiverPart,
  type ReceiverPartFactory,
  type SenderPart,
  type SenderPartFactory,
  SPEC_VERSION,
  type SpecVersion,
  type SwitchPart,
  type SwitchPartContext,
  type SwitchPartFactory,
} from "./cc.js";
export {
  compositionErrors,
  type DeclaringPart,
  type LanePlan,
  planLanes,
} from "./composition.js";
export type {
  HeaderField,
  LaneDeclaration,
  LaneRole,
  PartDeclarations,
} from "./declarations.js";
export type {
  Cable,
  Endpoint,
  FabricDescription,
  ForwardingTable,
  HostNode,
  PortSelection,
  Routing,
  SwitchNode,
  Topology,
} from "./description.js";
export { Fifo, IntFifo } from "./fifo.js";
export { FifoQueueSet } from "./fifo-queue-set.js";
export {
  CREDIT_BLOCK_BYTES,
  creditBlocks,
  type FlowControlDiscipline,
  type FlowStateColumns,
  type HeadroomInputs,
  PAUSE_FRAME_BYTES,
  PortFlowState,
  pfcHeadroomBytes,
  setPausedAt,
} from "./flow-control.js";
export { type InputBufferSetup, InputBuffers, type PauseRule } from "./input-buffer.js";
export { Link, type LinkReceiver, type LinkSender, LinkSet, type ReceiveTiming } from "./link.js";
export {
  DATA_KIND,
  Ecn,
  type EcnCodePoint,
  NAMED_PACKET_KINDS,
  NO_PACKET,
  type PacketColumn,
  type PacketColumnArray,
  type PacketId,
  type PacketInit,
  type PacketKind,
  type PacketSnapshot,
  Packets,
} from "./packet.js";
export { PacketChains } from "./packet-chains.js";
export { type CcPlugin, isCcPlugin, isZodSchema } from "./plugin.js";
export type { InputQueueSet, QueueingPart, QueueSetContext } from "./queueing.js";
export {
  type QueueValueLabels,
  queueValueLabelErrors,
  type ValueLabels,
} from "./value-labels.js";
export {
  CONTRACT_VERSION,
  IMPLEMENTED_CONTRACT_VERSIONS,
  type SpecVersionRange,
  satisfiesSpecVersion,
} from "./version.js";
export { INFINIBAND_VLS, MAX_VLS } from "./vl-limit.js";
