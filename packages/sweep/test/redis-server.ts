import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createServer } from "node:net";

/** Whether Debian's redis-server is on the PATH (CI installs it: .ci/run). */
export function redisServerInstalled(): boolean {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A throwaway Redis on loopback: no persistence, killed by `stop`. `port` restarts one on the
 * port of a stopped one; `password` makes it require one (the URL then carries it).
 */
export async function startRedis(
  options: { port?: number; password?: string } = {},
): Promise<{ url: string; port: number; stop: () => void }> {
  const port = options.port ?? (await freePort());
  const auth = options.password === undefined ? [] : ["--requirepass", options.password];
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...auth],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start:\n${out}`)),
      10_000,
    );
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${out}`));
    });
  });
  const credentials = options.password === undefined ? "" : `:${options.password}@`;
  return {
    url: `redis://${credentials}127.0.0.1:${port}`,
    port,
    stop: () => child.kill("SIGKILL"),
  };
}

/** A `cclab worker` process from the test bundle, with its output collected. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves when a line containing `text` appears in its output. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
}

export function startWorker(cli: string, args: readonly string[]): WorkerProcess {
  const child = spawn(process.execPath, [cli, "worker", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const waiters: { text: string; resolve: () => void; fail: (why: string) => void }[] = [];
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of [...waiters]) {
      if (out.includes(w.text)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  let exited: string | undefined;
  child.once("exit", (code, signal) => {
    exited = `worker exited (${signal ?? code}); it printed:\n${out}`;
    for (const w of waiters.splice(0)) w.fail(exited);
  });
  return {
    child,
    output: () => out,
    waitFor: (text, timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        if (out.includes(text)) return resolve();
        if (exited !== undefined) return reject(new Error(exited));
        const timer = setTimeout(
          () => reject(new Error(`worker never printed "${text}"; it printed:\n${out}`)),
          timeoutMs,
        );
        waiters.push({
          text,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
          fail: (why) => {
            clearTimeout(timer);
            reject(new Error(why));
          },
        });
      }),
  };
}
