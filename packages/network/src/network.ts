import { createRng, nsToPs, type RunOutcome, Scheduler, type TimePs } from "@cclab/core-des";
import {
  assertSpecVersion,
  type CcObservable,
  type CcScheme,
  CREDIT_BLOCK_BYTES,
  creditBlocks,
  type Endpoint,
  type FlowControlDiscipline,
  type LinkReceiver,
  type LinkSender,
  LinkSet,
  Packets,
  type PortFlowState,
  pfcHeadroomBytes,
  type ReceiveTiming,
  type Topology,
} from "@cclab/fabric";
import {
  type DeliveryListener,
  Hca,
  type HcaConfig,
  type Message,
  type ReceiveRateStep,
  registerHcaEvents,
  resolveHcaConfig,
} from "@cclab/fabric-hca";
import {
  registerSwitchEvents,
  resolveSwitchConfig,
  Switch,
  type SwitchConfig,
} from "@cclab/fabric-switch";
import { checkRouting } from "@cclab/topologies";
import { installCc } from "./cc-install.js";
import { planCc, type SwitchCcAssignment } from "./cc-plan.js";

/** How to build a network from a topology. Every field has a documented default. */
export interface NetworkOptions {
  /** Link-level flow control of the whole fabric. Default `credit` (InfiniBand). */
  readonly flowControl?: FlowControlDiscipline;
  /** Switch parameters (see @cclab/fabric-switch); `vlCount` applies to hosts too. */
  readonly switch?: Partial<SwitchConfig>;
  /** Host parameters (see @cclab/fabric-hca). */
  readonly host?: Partial<HcaConfig>;
  /**
   * Per host index, the receive-rate schedule that host runs instead of `host`'s
   * (`HcaConfig.receiveRateSchedule`; `undefined`: `host`'s): slow receivers among fast ones,
   * and receivers whose rate changes at given times (docs/model.md, "Hosts").
   */
  readonly hostReceiveRateSchedules?: readonly (readonly ReceiveRateStep[] | undefined)[];
  /** PFC thresholds of host receive buffers (PFC only; default: the switches' `pfc`). */
  readonly hostPfc?: { readonly xoffBytes: number; readonly xonBytes: number };
  /** Seed of every random stream of the run. Default 1. */
  readonly seed?: number;
  /** A congestion-control scheme run by every switch and host. Default: none. */
  readonly cc?: CcScheme;
  /**
   * Per host index, the scheme whose sender and receiver parts that host runs instead of
   * `cc`'s (`undefined`: `cc`'s parts, or none). Lets host groups run different schemes on
   * one fabric; the switches run `cc`'s switch and queueing parts.
   */
  readonly hostCc?: readonly (CcScheme | undefined)[];
  /**
   * Switch parts of further schemes, run after `cc`'s in this order by the switches each
   * lists (default: all), each seeing the packets of the VLs it lists (default: all) and of
   * its own lanes: several schemes in one fabric (SRP's drops beside DCQCN's marking), or
   * switch groups running different parts.
   */
  readonly switchCc?: readonly SwitchCcAssignment[];
  /** Whether hosts keep their latency histograms (see @cclab/fabric-hca). Default true. */
  readonly hostLatencyStats?: boolean;
  /** Whether hosts keep every completed message (see @cclab/fabric-hca). Default true. */
  readonly keepCompletions?: boolean;
}

interface Device extends LinkReceiver, LinkSender {
  receiveTiming(): ReceiveTiming;
  inputCreditBlocks(): number;
}

/**
 * A running fabric: switches, hosts and links built from a topology on one scheduler. Add
 * messages with {@link addMessage}, then {@link run}.
 */
export class Network {
  readonly scheduler = new Scheduler();
  /** Every packet of the run, by id (devices, CC parts and delivery listeners read it). */
  readonly packets = new Packets();
  readonly links: LinkSet;
  readonly switches: Switch[] = [];
  readonly hosts: Hca[] = [];
  readonly discipline: FlowControlDiscipline;
  readonly switchConfig: SwitchConfig;
  readonly hostConfig: HcaConfig;
  /**
   * Per host index, the parameters it runs with: `hostConfig`, with its own receive-rate
   * schedule where `hostReceiveRateSchedules` gives one.
   */
  readonly hostConfigs: readonly HcaConfig[];
  /** For each link index: the sending and receiving end (for checks and reports). */
  readonly linkEnds: { readonly from: Endpoint; readonly to: Endpoint }[] = [];
  private messageCount = 0;
  private readonly listeners: DeliveryListener[] = [];
  private readonly injectedListeners: ((messageId: number, srcHost: number) => void)[] = [];

  constructor(
    readonly topology: Topology,
    options: NetworkOptions = {},
  ) {
    const { fabric, routing } = topology;
    const flowControl = options.flowControl ?? "credit";
    if (flowControl !== "credit" && flowControl !== "pfc") {
      throw new TypeError(`flowControl must be "credit" or "pfc", got ${String(flowControl)}`);
    }
    // The literal, not the caller's string: one parsed from a scenario is not internalized, and
    // the devices compare it on every packet, which then costs a character compare (V8's
    // StringEqual) instead of a pointer compare (uniform256 under callgrind: about 70
    // instructions, twice per hop).
    this.discipline = flowControl === "credit" ? "credit" : "pfc";
    const cc = options.cc;
    if (cc !== undefined) assertSpecVersion(`cc scheme "${cc.name}"`, cc);
    if (cc?.queueingPart !== undefined)
      assertSpecVersion(`queueing part "${cc.queueingPart.name}"`, cc.queueingPart);
    const base = resolveSwitchConfig(
      {
        ...options.switch,
        ...(cc?.queueingPart === undefined ? {} : { queueing: cc.queueingPart }),
      },
      this.discipline,
      "switch",
    );
    const hostCc = options.hostCc ?? [];
    if (hostCc.length > fabric.hosts.length) {
      throw new RangeError(
        `hostCc lists ${hostCc.length} hosts; the fabric has ${fabric.hosts.length}`,
      );
    }
    const switchCc = options.switchCc ?? [];
    // The schemes hosts run: a host's own, else `cc`'s.
    const hostSchemes = fabric.hosts
      .map((_, h) => hostCc[h] ?? cc)
      .filter((scheme) => scheme !== undefined);
    for (const scheme of new Set([...hostSchemes, ...switchCc.map((a) => a.scheme)])) {
      if (scheme !== cc) assertSpecVersion(`cc scheme "${scheme.name}"`, scheme);
    }
    // The lanes the parts declare are added after the data VLs (docs/model.md, "Arbitration").
    const plan = planCc(base, cc, switchCc, hostSchemes, fabric.switches.length);
    const lanes = plan.lanes;
    const added = lanes.vlCount - base.vlCount;
    this.switchConfig =
      added === 0
        ? base
        : resolveSwitchConfig(
            {
              ...base,
              vlCount: lanes.vlCount,
              ...(base.vlWeights === undefined
                ? {}
                : { vlWeights: [...base.vlWeights, ...Array(added).fill(1)] }),
              controlVls: lanes.controlVls,
              lowPriorityVls: lanes.lowPriorityVls,
            },
            this.discipline,
            `switch (with ${added} VLs for ${plan.switchParts.map((p) => p.factory.name).join(", ") || "the hosts' schemes"})`,
          );
    this.hostConfig = resolveHcaConfig(options.host ?? {}, "host");
    this.hostConfigs = this.configsOfHosts(fabric.hosts.length, options);
    const hostPfc = options.hostPfc ?? this.switchConfig.pfc;
    if (this.discipline === "credit" && options.hostPfc !== undefined) {
      throw new TypeError(
        "hostPfc applies to PFC flow control only; this fabric uses credits (remove it, or set flowControl: pfc)",
      );
    }
    if (this.discipline === "pfc" && hostPfc === undefined) {
      throw new TypeError(
        "hostPfc {xoffBytes, xonBytes} is required with PFC and a shared switch buffer",
      );
    }
    checkRouting(fabric, routing);
    this.checkBuffersHoldAPacket();
    const rng = createRng(options.seed ?? 1);
    const scheduler = this.scheduler;
    this.links = new LinkSet(scheduler, this.packets, this.switchConfig.vlCount, this.discipline);
    const switchKinds = registerSwitchEvents(scheduler, this.switches);
    const hostKinds = registerHcaEvents(scheduler, this.hosts);
    const vlCount = this.switchConfig.vlCount;
    const hostCount = fabric.hosts.length;
    const anyCc = cc !== undefined || hostSchemes.length > 0 || switchCc.length > 0;
    fabric.switches.forEach((node, index) => {
      const table = routing.tables[index];
      if (table === undefined)
        throw new TypeError(`routing "${routing.name}" has no table for switch ${node.name}`);
      this.switches.push(
        new Switch({
          index,
          name: node.name,
          portCount: node.portCount,
          hostCount,
          config: this.switchConfig,
          discipline: this.discipline,
          table,
          scheduler,
          packets: this.packets,
          links: this.links,
          rng: rng.split(`switch/${index}/route`),
          kinds: switchKinds,
        }),
      );
    });
    fabric.hosts.forEach((node, index) => {
      this.hosts.push(
        new Hca({
          index,
          name: node.name,
          hostCount,
          vlCount,
          config: this.hostConfigs[index]!,
          discipline: this.discipline,
          ...(hostPfc === undefined ? {} : { pfc: hostPfc }),
          scheduler,
          kinds: hostKinds,
          nextMessageId: () => this.messageCount++,
          packets: this.packets,
          links: this.links,
          latencyStats: options.hostLatencyStats ?? true,
          keepCompletions: options.keepCompletions ?? true,
          lowPriorityVls: this.switchConfig.lowPriorityVls,
        }),
      );
    });
    this.wire();
    if (this.discipline === "pfc") this.checkHeadroom(hostPfc!);
    if (anyCc) installCc(this, plan, cc, hostCc, rng);
  }

  /** Queues a message at host `srcHost`; returns its id. */
  addMessage(srcHost: number, message: Message): number {
    const host = this.hosts[srcHost];
    if (host === undefined) {
      throw new RangeError(
        `srcHost must be a host index in 0..${this.hosts.length - 1}, got ${srcHost}`,
      );
    }
    return host.addMessage(message);
  }

  /**
   * Calls `listener` for every packet a host consumes, by id in {@link packets}. The packet is
   * the listener's to read during the call only: it is freed, and its id reused, after it.
   */
  onDelivery(listener: DeliveryListener): void {
    // Hosts call no listener until one is added: a run that observes nothing pays nothing
    // per delivered packet.
    if (this.listeners.length === 0) {
      const listeners = this.listeners;
      const fanOut: DeliveryListener = (packet, nowPs) => {
        for (let i = 0; i < listeners.length; i++) listeners[i]!(packet, nowPs);
      };
      for (const host of this.hosts) host.onDelivery(fanOut);
    }
    this.listeners.push(listener);
  }

  /**
   * The CC parts' counters, summed by name over every switch and host (empty without CC).
   * Names are the parts' own (e.g. `fecnMarked`, `becnReceived`).
   */
  ccCounters(): Record<string, number> {
    const total: Record<string, number> = {};
    const add = (part: CcObservable | undefined) => {
      const counters = part?.counters?.();
      if (counters === undefined) return;
      for (const [name, value] of Object.entries(counters))
        total[name] = (total[name] ?? 0) + value;
    };
    for (const sw of this.switches) add(sw.ccPart);
    for (const host of this.hosts) {
      add(host.parts.sender);
      add(host.parts.receiver);
    }
    return total;
  }

  /** Samples every host sender part's per-flow variables (see `CcObservable.sampleFlows`). */
  sampleCcFlows(visit: (flowId: number, variable: string, value: number) => void): void {
    for (const host of this.hosts) host.parts.sender?.sampleFlows?.(visit);
  }

  /**
   * Calls `listener` with a message's id and source host when its last packet starts leaving
   * the source. Listeners run in the order they were added.
   */
  onMessageInjected(listener: (messageId: number, srcHost: number) => void): void {
    if (this.injectedListeners.length === 0) {
      const listeners = this.injectedListeners;
      for (const host of this.hosts) {
        host.onMessageInjected((id) => {
          for (let i = 0; i < listeners.length; i++) listeners[i]!(id, host.index);
        });
      }
    }
    this.injectedListeners.push(listener);
  }

  /** Runs until `untilPs` (or until nothing is pending, if omitted). */
  run(untilPs?: TimePs, stopWhen?: () => boolean): RunOutcome {
    return this.scheduler.run({
      ...(untilPs === undefined ? {} : { untilPs }),
      ...(stopWhen === undefined ? {} : { stopWhen }),
    });
  }

  get nowPs(): TimePs {
    return this.scheduler.nowPs;
  }

  private device(end: Endpoint): Device {
    return end.kind === "host" ? this.hosts[end.index]! : this.switches[end.index]!;
  }

  private portOf(end: Endpoint): number {
    return end.kind === "host" ? 0 : end.port;
  }

  private wire(): void {
    const { fabric } = this.topology;
    const used = new Set<string>();
    const cabledHosts = new Uint8Array(fabric.hosts.length);
    fabric.cables.forEach((cable, c) => {
      for (const end of [cable.a, cable.b]) {
        const key = end.kind === "host" ? `h${end.index}` : `s${end.index}:${end.port}`;
        const name =
          end.kind === "host"
            ? `host ${fabric.hosts[end.index]?.name ?? end.index}`
            : `switch ${fabric.switches[end.index]?.name ?? end.index} port ${end.port}`;
        if (used.has(key)) throw new RangeError(`cables[${c}]: ${name} is already cabled`);
        used.add(key);
        if (end.kind === "host") {
          if (end.index < 0 || end.index >= fabric.hosts.length)
            throw new RangeError(`cables[${c}]: no host ${end.index}`);
          cabledHosts[end.index] = 1;
        } else {
          const node = fabric.switches[end.index];
          if (node === undefined) throw new RangeError(`cables[${c}]: no switch ${end.index}`);
          if (!(end.port >= 0 && end.port < node.portCount)) {
            throw new RangeError(`cables[${c}]: ${name} is outside 0..${node.portCount - 1}`);
          }
        }
      }
      if (!(cable.rateGbps > 0) || !Number.isFinite(cable.rateGbps)) {
        throw new RangeError(`cables[${c}].rateGbps must be > 0, got ${cable.rateGbps}`);
      }
      if (!(cable.latencyNs >= 0) || !Number.isFinite(cable.latencyNs)) {
        throw new RangeError(`cables[${c}].latencyNs must be ≥ 0, got ${cable.latencyNs}`);
      }
      const latencyPs = nsToPs(cable.latencyNs);
      const ab = this.links.add(cable.rateGbps, latencyPs);
      const ba = this.links.add(cable.rateGbps, latencyPs);
      this.linkEnds.push({ from: cable.a, to: cable.b }, { from: cable.b, to: cable.a });
      for (const [end, out, incoming] of [
        [cable.a, ab, ba],
        [cable.b, ba, ab],
      ] as const) {
        if (end.kind === "host") this.hosts[end.index]!.attach(out, incoming);
        else this.switches[end.index]!.attach(end.port, out, incoming);
      }
      for (const [from, to, link] of [
        [cable.a, cable.b, ab],
        [cable.b, cable.a, ba],
      ] as const) {
        const sender = this.device(from);
        const receiver = this.device(to);
        if (this.discipline === "credit") link.flow.credits.fill(receiver.inputCreditBlocks());
        link.connect(
          sender,
          this.portOf(from),
          receiver,
          this.portOf(to),
          receiver.receiveTiming(),
        );
      }
    });
    const uncabled = cabledHosts.indexOf(0);
    if (uncabled >= 0) throw new RangeError(`host ${fabric.hosts[uncabled]!.name} has no cable`);
  }

  /** The transmit-side flow-control state of a port. */
  flowState(end: Endpoint): PortFlowState {
    return end.kind === "host"
      ? this.hosts[end.index]!.uplinkFlow
      : this.switches[end.index]!.outFlow[end.port]!;
  }

  // Each host's parameters: the shared ones, or those with its own receive-rate schedule.
  private configsOfHosts(hostCount: number, options: NetworkOptions): HcaConfig[] {
    const schedules = options.hostReceiveRateSchedules ?? [];
    if (schedules.length > hostCount) {
      throw new RangeError(
        `hostReceiveRateSchedules lists ${schedules.length} hosts; the fabric has ${hostCount}`,
      );
    }
    return Array.from({ length: hostCount }, (_, h) => {
      const receiveRateSchedule = schedules[h];
      if (receiveRateSchedule === undefined) return this.hostConfig;
      const where = `hostReceiveRateSchedules[${h}]`;
      return resolveHcaConfig({ ...options.host, receiveRateSchedule }, where);
    });
  }

  // A credit buffer smaller than one packet would never grant it: the run would hang.
  private checkBuffersHoldAPacket(): void {
    const packetBytes = this.hostConfig.mtuBytes + this.hostConfig.headerBytes;
    const need = creditBlocks(packetBytes) * CREDIT_BLOCK_BYTES;
    const buffer = this.switchConfig.buffer;
    if (buffer.model === "partitioned" && buffer.bytesPerPortVl < need) {
      throw new RangeError(
        `switch.buffer.bytesPerPortVl (${buffer.bytesPerPortVl}) must hold one full packet: ≥ ${need} B (mtuBytes + headerBytes = ${packetBytes} B in 64-byte blocks)`,
      );
    }
    const output = this.switchConfig.outputBufferBytes;
    if (output > 0 && output < packetBytes) {
      throw new RangeError(
        `switch.outputBufferBytes (${output}) must be 0 (none) or hold one full packet: ≥ ${packetBytes} B`,
      );
    }
    if (this.hostConfig.receiveBufferBytes < need) {
      throw new RangeError(
        `host.receiveBufferBytes (${this.hostConfig.receiveBufferBytes}) must hold one full packet: ≥ ${need} B (mtuBytes + headerBytes = ${packetBytes} B in 64-byte blocks)`,
      );
    }
  }

  // docs/model.md, "Flow control": validation rejects a PFC configuration whose headroom cannot
  // absorb what arrives after XOFF. Checked per link, with the receiver's thresholds and timing.
  private checkHeadroom(hostPfc: { readonly xoffBytes: number; readonly xonBytes: number }): void {
    const maxPacketBytes = this.hostConfig.mtuBytes + this.hostConfig.headerBytes;
    const buffer = this.switchConfig.buffer;
    if (hostPfc.xonBytes > hostPfc.xoffBytes) {
      throw new RangeError(
        `hostPfc.xonBytes (${hostPfc.xonBytes}) must be ≤ xoffBytes (${hostPfc.xoffBytes})`,
      );
    }
    for (const link of this.links.links) {
      const to = this.linkEnds[link.index]!.to;
      const timing = this.device(to).receiveTiming();
      const need = pfcHeadroomBytes({
        rateGbps: link.rateGbps,
        latencyNs: link.latencyPs / 1000,
        maxPacketBytes,
        processingNs: timing.processingPs / 1000,
        // A receiver that waits for the tail counts a packet one packet-time later.
        cutThroughBytes: Math.min(timing.cutThroughBytes, maxPacketBytes),
      });
      // The message starts with the field to change (the scenario's path), then the sum.
      let have: number;
      let field: string;
      let sum: string;
      if (to.kind === "host") {
        have = this.hostConfig.receiveBufferBytes - hostPfc.xoffBytes;
        field = "host.receiveBufferBytes";
        sum = "host.receiveBufferBytes − host.pfc.xoffBytes";
      } else if (buffer.model === "partitioned") {
        have = buffer.bytesPerPortVl - this.switchConfig.pfc!.xoffBytes;
        field = "switch.buffer.bytesPerPortVl";
        sum = "switch.buffer.bytesPerPortVl − switch.pfc.xoffBytes";
      } else {
        have = buffer.headroomBytes;
        field = "switch.buffer.headroomBytes";
        sum = field;
      }
      if (have < need) {
        throw new RangeError(
          `${field}: PFC headroom too small on the link into ${to.kind} ${to.index}: ${sum} = ${have} B, needs ≥ ${need} B (2 × latency × rate + MTU + pause frame + routing delay at ${link.rateGbps} Gb/s, ${link.latencyPs / 1000} ns)`,
        );
      }
    }
  }
}
