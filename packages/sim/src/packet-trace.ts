import type { Scheduler } from "@cclab/core-des";
import {
  type CcScheme,
  type FabricDescription,
  LINK_LOCAL,
  type PacketColumn,
  type PacketId,
  type Packets,
  type SwitchPart,
  type SwitchPartFactory,
} from "@cclab/fabric";
import type { Network } from "@cclab/network";
import {
  checkTraceOptions,
  PORT_KEY,
  type TraceFilter,
  type TraceOptions,
  TraceOptionsError,
} from "./trace-filter.js";

export const TRACE_FILE = "trace.csv";

export const TRACE_COLUMNS =
  "time_ps,device,port,vl,event,packet,flow,src,dst,kind,size_bytes,payload_bytes,message,seq,fecn,becn,ecn";

/** What a trace holds, for `run.json` (`trace`): a truncated trace never looks complete. */
export interface TraceInfo {
  readonly file: string;
  /** Rows written (events that matched the filter, up to `maxRows`). */
  readonly rows: number;
  readonly maxRows: number;
  /** True when `maxRows` stopped the trace. */
  readonly truncated: boolean;
  /** Events that matched after the bound was hit and were not written. */
  readonly omittedRows: number;
}

// Names of the ECN code points (packages/fabric/src/packet.ts, `Ecn`), by code.
const ECN_NAMES = ["not-ect", "ect", "ue", "ce"];

/**
 * A packet trace (docs/model.md, "Packet trace"): one CSV row per packet event that passes the
 * filter, in the order events happen, up to `maxRows`. It observes only, through hooks that
 * exist only in runs that trace: a switch part after the scenario's own (`enqueue`,
 * `transmit`, and `deliver` of a link-local packet), the dropping parts' `dropAtHead` wrapped
 * (`drop`), and the hosts' `observePackets` (`inject`, `deliver`). It draws no random number,
 * sends nothing and changes no packet field the run reads, so the run is the same with it.
 */
export class PacketTrace {
  private readonly filter: TraceFilter;
  private readonly rows: string[] = [TRACE_COLUMNS];
  private omitted = 0;
  private packets: Packets | undefined = undefined;
  private scheduler: Scheduler | undefined = undefined;
  /** The trace's own packet numbers (1, 2, …), by packet id: ids are reused, these are not. */
  private serials: PacketColumn<Float64Array<ArrayBuffer>> | undefined = undefined;
  private nextSerial = 1;
  private vlCount = 1;
  private readonly deviceNames: readonly string[];
  private readonly hostNames: readonly string[];
  private readonly switchCount: number;

  /** Throws {@link TraceOptionsError} listing every problem with `options`. */
  constructor(
    private readonly options: TraceOptions,
    private readonly fabric: FabricDescription,
  ) {
    const { filter, issues } = checkTraceOptions(options, fabric);
    if (issues.length > 0) throw new TraceOptionsError(issues);
    this.filter = filter;
    this.switchCount = fabric.switches.length;
    this.hostNames = fabric.hosts.map((h) => h.name);
    this.deviceNames = [...fabric.switches.map((s) => s.name), ...this.hostNames];
  }

  /** The observing switch part, for the network's `switchCc` (after the scenario's parts). */
  scheme(): CcScheme {
    const name = "packet trace";
    return {
      specVersion: "^3.0.0",
      name,
      switchPart: {
        specVersion: "^3.0.0",
        name,
        create: (context): SwitchPart => {
          this.use(context.packets, context.scheduler);
          const device = context.switchIndex;
          return {
            onEnqueue: (packet, inPort) => this.record("enqueue", device, inPort, packet),
            onTransmit: (packet, _inPort, outPort) => {
              this.record("transmit", device, outPort, packet);
            },
            // A link-local control packet ends its trip here (docs/model.md, "Arbitration").
            onLinkControl: (packet, inPort) => this.record("deliver", device, inPort, packet),
          };
        },
      },
    };
  }

  /**
   * `scheme` with its switch part's drops recorded: the part's `dropAtHead` is wrapped, in
   * this run only (no other part sees a drop as such; docs/model.md, "Arbitration").
   */
  observeDrops<S extends CcScheme | undefined>(scheme: S): S {
    const factory = scheme?.switchPart;
    if (scheme === undefined || factory === undefined) return scheme;
    const wrapped = Object.create(factory, {
      create: {
        value: (context: Parameters<SwitchPartFactory["create"]>[0]) => {
          const part = factory.create(context);
          this.use(context.packets, context.scheduler);
          const dropAtHead = part.dropAtHead;
          if (dropAtHead === undefined) return part;
          const device = context.switchIndex;
          part.dropAtHead = (packet, inPort, hasRoom) => {
            const dropped = dropAtHead.call(part, packet, inPort, hasRoom);
            if (dropped) this.record("drop", device, inPort, packet);
            return dropped;
          };
          return part;
        },
      },
    }) as SwitchPartFactory;
    return { ...scheme, switchPart: wrapped };
  }

  /**
   * Starts observing `network`'s hosts. Throws {@link TraceOptionsError} if a flow id names no
   * flow of it (ids depend on its VL count, CC lanes included).
   */
  attach(network: Network): void {
    const vlCount = network.switchConfig.vlCount;
    const { issues } = checkTraceOptions(this.options, this.fabric, vlCount);
    if (issues.length > 0) throw new TraceOptionsError(issues);
    this.vlCount = vlCount;
    this.use(network.packets, network.scheduler);
    for (const host of network.hosts) {
      const device = this.switchCount + host.index;
      host.observePackets(
        (packet) => this.record("inject", device, 0, packet),
        (packet) => this.record("deliver", device, 0, packet),
      );
    }
  }

  /** The CSV: a header, the rows, and a closing `#` line saying so when the bound cut it. */
  csv(): string {
    const info = this.info();
    const end = info.truncated
      ? `# truncated: the first ${info.rows} matching packet events only (maxRows ${info.maxRows}); ${info.omittedRows} later matching events were not written\n`
      : "";
    return `${this.rows.join("\n")}\n${end}`;
  }

  info(): TraceInfo {
    const rows = this.rows.length - 1;
    return {
      file: TRACE_FILE,
      rows,
      maxRows: this.filter.maxRows,
      truncated: this.omitted > 0,
      omittedRows: this.omitted,
    };
  }

  private use(packets: Packets, scheduler: Scheduler): void {
    if (this.packets !== undefined) return;
    this.packets = packets;
    this.scheduler = scheduler;
    this.serials = packets.column("trace.packet", Float64Array);
  }

  // `device`: switch index, or switch count + host index.
  private record(event: string, device: number, port: number, packet: PacketId): void {
    const f = this.filter;
    const packets = this.packets!;
    const now = this.scheduler!.nowPs;
    if (now < f.fromPs || now >= f.toPs) return;
    if (f.ports !== null && !f.ports.has(device * PORT_KEY + port)) return;
    const flow = packets.flowId[packet]!;
    if (
      f.flowIds !== null &&
      !f.flowIds.has(flow) &&
      !f.flowPairs!.has(Math.floor(flow / this.vlCount))
    ) {
      return;
    }
    const kind = packets.kind(packet);
    if (f.kinds !== null && !f.kinds.has(kind)) return;
    if (this.rows.length > f.maxRows) {
      this.omitted++;
      return;
    }
    const serials = this.serials!.values;
    let serial = serials[packet]!;
    if (serial === 0) {
      serial = this.nextSerial++;
      serials[packet] = serial;
    }
    const src = packets.srcHost[packet]!;
    const dst = packets.dstHost[packet]!;
    this.rows.push(
      `${now},${this.deviceNames[device]},${port},${packets.vl[packet]},${event},${serial},${flow},${this.hostNames[src] ?? src},${dst === LINK_LOCAL ? "link-local" : (this.hostNames[dst] ?? dst)},${kind},${packets.sizeBytes[packet]},${packets.payloadBytes[packet]},${packets.messageId[packet]},${packets.seqInMessage[packet]},${packets.fecn[packet]},${packets.becn[packet]},${ECN_NAMES[packets.ecn[packet]!] ?? packets.ecn[packet]}`,
    );
  }
}
