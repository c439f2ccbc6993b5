import { FifoQueueSet, type QueueingPart } from "@cclab/fabric";

/**
 * One FIFO per input port and VL ("1Q"): a head packet for a busy or blocked output blocks
 * everything behind it (head-of-line blocking, Gran thesis background chapter). The queue set
 * is the contract's {@link FifoQueueSet}, which schemes may use for lanes of their own.
 */
export { FifoQueueSet as SingleQueue };

export const singleQueue: QueueingPart = {
  specVersion: 2,
  name: "1q",
  create: (context) => new FifoQueueSet(context.packets),
};
