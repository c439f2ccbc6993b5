/**
 * The most VLs (InfiniBand virtual lanes, or Ethernet PFC priorities) a port may have: the
 * fabric's data VLs and the lanes its CC schemes add, together. Every check of a VL count
 * (switch configuration, scenario schema, lane planning) uses it.
 *
 * InfiniBand ports have at most 16 VLs (15 data VLs and VL15 for management), Ethernet 8
 * priorities. More are a model, not hardware: VOQnet, the baseline of Gran's Paper VI, gives
 * every destination host a VL of its own, with its own buffer and credits (seed
 * `001_7d04a2bae72754e7.txt` L2346–2349); 1024 lanes cover the paper's largest fabric (1024
 * nodes). Packets carry their VL and SL in 16-bit columns.
 */
export const MAX_VLS = 1024;

/** The VLs of an InfiniBand port (VL0–VL14 for data, VL15): more model VOQnet's lanes. */
export const INFINIBAND_VLS = 16;
