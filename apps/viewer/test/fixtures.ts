import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A small result directory as cclab run writes one (two flows, two ports, link throughput, CC
 * and TCD states).
 */
export function writeRunDir(dir: string, scenario = "tiny"): string {
  mkdirSync(dir, { recursive: true });
  const files: Record<string, string> = {
    "summary.json": JSON.stringify({
      schemaVersion: 2,
      scenario,
      seed: 1,
      status: "time-reached",
      simulatedUs: 300,
      windowUs: { from: 0, to: 300 },
      eventsProcessed: 1000,
      totals: { messages: 4, completedMessages: 3, windowGbps: 12.5 },
      groups: [
        { name: "victim", flows: 1, meanGbps: 5, minGbps: 5, maxGbps: 5, jainIndex: 1 },
        { name: "hot", flows: 1, meanGbps: 7.5, minGbps: 7.5, maxGbps: 7.5, jainIndex: 1 },
      ],
      flows: [
        {
          id: 0,
          srcName: "H0",
          dstName: "H1",
          group: "victim",
          windowGbps: 5,
          messages: 2,
          completedMessages: 2,
        },
        {
          id: 1,
          srcName: "H2",
          dstName: "H1",
          group: "hot",
          windowGbps: 7.5,
          messages: 2,
          completedMessages: 1,
        },
      ],
      congestedPorts: [
        {
          portName: "S0.p0",
          peer: "H0",
          vl: 0,
          meanInputBytes: 100,
          maxInputBytes: 200,
          blockedUs: 3,
        },
      ],
    }),
    "summary.txt": "scenario tiny  seed 1\n",
    "run.json": JSON.stringify({
      status: "complete",
      queueSeries: { valueLabels: { state: { "0": "NC", "3": "C" } } },
    }),
    "flow-throughput.csv": [
      "bin_start_us,flow,src,dst,group,gbps",
      "0,0,H0,H1,victim,4",
      "0,1,H2,H1,hot,8",
      "100,0,H0,H1,victim,6",
      "200,1,H2,H1,hot,7",
    ].join("\n"),
    "port-occupancy.csv": [
      "bin_start_us,switch,port,vl,mean_input_bytes,port_name,peer",
      "0,S0,0,0,1024,S0.p0,H0",
      "100,S0,0,0,2048,S0.p0,H0",
    ].join("\n"),
    "flow-control.csv": [
      "bin_start_us,device,port,vl,blocked_fraction,port_name,peer",
      "0,S0,1,0,0.5,S0.p1,H1",
      "100,S0,1,0,0.25,S0.p1,H1",
    ].join("\n"),
    "link-throughput.csv": [
      "bin_start_us,device,port,gbps,port_name,peer",
      "0,S0,1,10,S0.p1,H1",
      "0,H0,0,5,H0.p0,S0.p0",
      "100,S0,1,20,S0.p1,H1",
      "100,H0,0,0,H0.p0,S0.p0",
    ].join("\n"),
    "cc-flows.csv": [
      "time_us,flow,src,dst,variable,value",
      "100,0,H0,H1,ccti,0",
      "100,0,H0,H1,rateGbps,16",
      "200,0,H0,H1,ccti,3",
      "200,0,H0,H1,rateGbps,8",
    ].join("\n"),
    "cc-queues.csv": [
      "time_us,switch,port,port_name,vl,variable,value",
      "100,S0,1,S0.p1,0,state,0",
      "200,S0,1,S0.p1,0,state,3",
    ].join("\n"),
    "ports.csv": [
      "device,port,port_name,peer,vl,bytes_forwarded,packets_forwarded,mean_input_bytes,max_input_bytes,blocked_us,off_transitions",
      "S0,0,S0.p0,H0,0,0,0,100,200,0,0",
      "S0,1,S0.p1,H1,0,375000,200,0,0,3,1",
      "S0,2,S0.p2,H2,0,0,0,0,0,0,0",
      "H0,0,H0.p0,S0.p0,0,187500,100,0,0,0,0",
      "H1,0,H1.p0,S0.p1,0,0,0,0,0,0,0",
      "H2,0,H2.p0,S0.p2,0,187500,100,0,0,0,0",
    ].join("\n"),
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), `${text}\n`);
  return dir;
}

/** A sweep directory of two points over one axis, one finished with its run. */
export function writeSweepDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "sweep.resolved.json"),
    JSON.stringify({
      name: "tiny-sweep",
      axes: { "cc.x": [1, 2] },
      plot: {},
      points: [
        { id: "p1", values: { "cc.x": 1 }, seed: 1 },
        { id: "p2", values: { "cc.x": 2 }, seed: 1 },
      ],
    }),
  );
  writeFileSync(
    join(dir, "sweep.csv"),
    "point,cc.x,seed,status,totals.windowGbps,groups.victim.meanGbps,error\np1,1,1,complete,12.5,5,\np2,2,1,failed,,,boom\n",
  );
  writeRunDir(join(dir, "points/p1"));
  mkdirSync(join(dir, "points/p2"), { recursive: true });
  writeFileSync(join(dir, "points/p2/error.txt"), "boom\n");
  return dir;
}
