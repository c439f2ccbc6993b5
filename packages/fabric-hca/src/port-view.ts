import type { TimePs } from "@cclab/core-des";
import type { InputBuffers, PortFlowState, PortView } from "@cclab/fabric";
import type { UplinkTransmitter } from "./uplink-transmitter.js";

/**
 * A host's port as its CC parts see it: the receive buffer (port 0 of the host's input
 * buffers), the uplink transmitter, and its credits, pause and ON/OFF state. A class, like the
 * switch's port view, rather than an object of closures: one shape for every host, and
 * methods V8 can inline into a part's monomorphic call site.
 */
export class HostPortView implements PortView {
  constructor(
    readonly vlCount: number,
    private readonly inputs: InputBuffers,
    private readonly uplinkFlow: PortFlowState,
    private readonly transmitter: Pick<UplinkTransmitter, "isTransmitting">,
  ) {}

  inputBytes(vl: number): number {
    return this.inputs.bytes(0, vl);
  }

  credits(vl: number): number {
    return this.uplinkFlow.creditsOn(vl);
  }

  isPaused(vl: number): boolean {
    return this.uplinkFlow.isPaused(vl);
  }

  isTransmitting(): boolean {
    return this.transmitter.isTransmitting();
  }

  isBlocked(vl: number): boolean {
    return this.uplinkFlow.isBlocked(vl);
  }

  lastOnPs(vl: number): TimePs {
    return this.uplinkFlow.lastOnPs(vl);
  }

  offCount(vl: number): number {
    return this.uplinkFlow.offCount(vl);
  }
}
