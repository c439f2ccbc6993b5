import type { Endpoint } from "@cclab/fabric";
import type { Network } from "./network.js";

// The place a violation is at, as the other messages name devices: `switch S0 port 2`, `host H1`.
function endName(network: Network, end: Endpoint): string {
  return end.kind === "host"
    ? `host ${network.hosts[end.index]!.name}`
    : `switch ${network.switches[end.index]!.name} port ${end.port}`;
}

/**
 * Credit conservation (docs/model.md, "Invariants"): for every link and VL, credits held by the
 * sender + blocks on the wire + blocks buffered at the receiver (from that link) + credits on
 * their way back = the receiver's buffer in blocks. Returns the first violation as text naming
 * the link and its two ends (device and port) and the VL, or undefined.
 */
export function creditConservationViolation(network: Network): string | undefined {
  if (network.discipline !== "credit") return undefined;
  const vlCount = network.switchConfig.vlCount;
  for (const link of network.links.links) {
    const { from, to } = network.linkEnds[link.index]!;
    const sender = network.flowState(from);
    // Copies of the link's per-VL columns, once per link: taken per VL, the check grew with
    // the square of the VLs (64 VLs: a fifth of a run's time went to the periodic check).
    const inFlight = link.blocksInFlight;
    const returning = link.creditsReturning;
    const credits = sender.credits;
    for (let vl = 0; vl < vlCount; vl++) {
      let buffered: number;
      let capacity: number;
      if (to.kind === "host") {
        const host = network.hosts[to.index]!;
        buffered = host.receiveBlocksOf(vl);
        capacity = host.inputCreditBlocks();
      } else {
        const sw = network.switches[to.index]!;
        buffered = sw.inputs.blocks(to.port, vl);
        capacity = sw.inputCreditBlocks();
      }
      const held = credits[vl]!;
      const total = held + inFlight[vl]! + buffered + returning[vl]!;
      if (total !== capacity || held < 0) {
        return `link ${link.index} (${endName(network, from)} → ${endName(network, to)}) VL ${vl} at ${network.nowPs} ps: held ${held} + on wire ${inFlight[vl]} + buffered ${buffered} + returning ${returning[vl]} = ${total}, buffer ${capacity} blocks`;
      }
    }
  }
  return undefined;
}

/**
 * No buffer ever held more than its size: partitioned input buffers and host receive buffers
 * per VL (their peaks since the start), output buffers, hosts' egress FIFOs per VL, and a
 * shared switch memory in total (shared pool plus every queue's headroom). Returns the first violation as text, or undefined.
 */
export function bufferOverflowViolation(network: Network): string | undefined {
  const config = network.switchConfig;
  const buffer = config.buffer;
  for (const sw of network.switches) {
    const outputs = sw.outputs;
    for (let port = 0; outputs !== undefined && port < sw.portCount; port++) {
      for (let vl = 0; vl < config.vlCount; vl++) {
        const held = outputs.maxBytes(port, vl);
        if (held > config.outputBufferBytes) {
          return `switch ${sw.name} output ${port} VL ${vl} held ${held} B > ${config.outputBufferBytes} B`;
        }
      }
    }
    const peaks = sw.inputs.peakBytes;
    if (buffer.model === "partitioned") {
      for (let q = 0; q < peaks.length; q++) {
        if (peaks[q]! > buffer.bytesPerPortVl) {
          return `switch ${sw.name} input ${Math.floor(q / config.vlCount)} VL ${q % config.vlCount} held ${peaks[q]} B > ${buffer.bytesPerPortVl} B`;
        }
      }
    } else {
      const capacity = buffer.sharedBytes + buffer.headroomBytes * peaks.length;
      if (sw.inputs.maxTotalBytes > capacity) {
        return `switch ${sw.name} held ${sw.inputs.maxTotalBytes} B > shared ${buffer.sharedBytes} B + headroom ${buffer.headroomBytes} B × ${peaks.length} queues`;
      }
    }
  }
  for (const host of network.hosts) {
    for (let vl = 0; vl < host.maxReceiveBytes.length; vl++) {
      if (host.maxReceiveBytes[vl]! > network.hostConfig.receiveBufferBytes) {
        return `host ${host.name} VL ${vl} held ${host.maxReceiveBytes[vl]} B > ${network.hostConfig.receiveBufferBytes} B`;
      }
    }
    const egress = host.egressBuffer;
    for (let vl = 0; egress !== undefined && vl < egress.vlCount; vl++) {
      if (egress.peakBytes[vl]! > egress.config.bytes) {
        return `host ${host.name} egress FIFO VL ${vl} held ${egress.peakBytes[vl]} B > ${egress.config.bytes} B`;
      }
    }
  }
  return undefined;
}
