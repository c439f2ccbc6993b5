import { PortMap, readScenarioFile, resolveScenario } from "@cclab/sim";
import { EXIT, type Io, UsageError } from "./errors.js";
import { parseSeed } from "./run.js";

/**
 * `cclab topology <scenario>`: the scenario's fabric as a port map, every port named by its
 * device and number and by what its cable leads to (`S3.p5 → H17`), the names results use.
 */
export async function topology(
  positionals: readonly string[],
  values: { seed?: string; set?: string[]; csv?: boolean },
  io: Io,
): Promise<number> {
  if (positionals.length !== 1) {
    throw new UsageError(
      "cclab topology: give exactly one scenario file (see cclab topology --help)",
    );
  }
  const seed = parseSeed(values.seed, "topology");
  const { document, baseDir } = readScenarioFile(positionals[0]!, {
    ...(seed === undefined ? {} : { seed }),
    set: values.set ?? [],
  });
  const { topology: built } = await resolveScenario(document, { baseDir });
  const ports = new PortMap(built.fabric);
  if (values.csv === true) {
    io.stdout.write(ports.csv());
    return EXIT.ok;
  }
  const { fabric, routing } = built;
  const cabled = ports.entries.filter((e) => e.peer !== "-").length;
  io.stdout.write(
    `${fabric.name}: ${fabric.switches.length} switches, ${fabric.hosts.length} hosts, ${fabric.cables.length} cables (${cabled} of ${ports.entries.length} ports cabled), routing ${routing.name}\n\n`,
  );
  io.stdout.write(`${ports.text().join("\n")}\n`);
  return EXIT.ok;
}
