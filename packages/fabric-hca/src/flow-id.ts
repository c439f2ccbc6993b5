/**
 * The flow id of the queue pair from `srcHost` to `dstHost` at service level `sl`: unique in
 * a network of `hostCount` hosts and `vlCount` VLs. {@link flowEndpoints} inverts it.
 */
export function flowIdOf(
  srcHost: number,
  dstHost: number,
  sl: number,
  hostCount: number,
  vlCount: number,
): number {
  return (srcHost * hostCount + dstHost) * vlCount + sl;
}

/** The source, destination and SL of a flow id made by {@link flowIdOf}. */
export function flowEndpoints(
  flowId: number,
  hostCount: number,
  vlCount: number,
): { srcHost: number; dstHost: number; sl: number } {
  const pair = Math.floor(flowId / vlCount);
  return { srcHost: Math.floor(pair / hostCount), dstHost: pair % hostCount, sl: flowId % vlCount };
}
