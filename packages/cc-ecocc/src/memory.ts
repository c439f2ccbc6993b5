import { dListCapFor, type EcoccParams } from "./params.js";

/**
 * What EcoCC's structures cost at one switch, after the paper's Section 8 (seed 001
 * L2562–2573): per input port and data VL a CPQ per other output and `hotQueues` HPQs, with one
 * CAM line each (L2347: 7 + 2 = 9 for 8 ports); per output port `outputCamLines` lines. A line
 * is 16 CAM cells (output port, hops and the linked line number), the destination list (cap ×
 * log2 of the host count, L2562) and 35 SRAM bits (stop, sentStop, propagated, a 32-bit timer).
 * Summed over the switches by the run summary, these are the fabric's totals; divided by the
 * input ports they give the paper's per-port figures (L2573: 3339 cells at 1024 nodes).
 */
export function memoryOf(
  p: EcoccParams,
  portCount: number,
  hostCount: number,
  queueSets: number,
): Record<string, number> {
  const cap = dListCapFor(p, hostCount);
  const bitsPerLine = 16 + cap * Math.ceil(Math.log2(Math.max(2, hostCount))) + 35;
  // CCFIT's inputs have one normal queue and a line per CFQ only (L1961, L2599).
  const single = p.ccfit !== null;
  const coldQueues = queueSets * (single ? 1 : portCount - 1);
  const hotQueues = queueSets * p.hotQueues;
  const inputCamLines = single ? hotQueues : coldQueues + hotQueues;
  const outputCamLines = portCount * p.outputCamLines;
  return {
    coldQueues,
    hotQueues,
    inputCamLines,
    outputCamLines,
    camBits: (inputCamLines + outputCamLines) * bitsPerLine,
  };
}
