/**
 * The event kind of every DCQCN timer (a reaction point's rate-increase and decrease-check
 * timers, a notification point's CNP window): one kind per scheduler for all flows of all
 * hosts, whose targets say which flow and which timer (`OwnerTimers`, @cclab/core-des).
 */
export const DCQCN_TIMER_KIND = "dcqcn: timer";
