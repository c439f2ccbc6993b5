import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchDir } from "../../../../packages/sim/test/scratch-dir.js";
import { writeRunDir, writeSweepDir } from "../../test/fixtures.js";
import { Catalog } from "../data/catalog.js";
import type { Manifest, RunDetail, SeriesData } from "../data/types.js";
import { startServer, type ViewerServer } from "./server.js";

/** A GET with the path sent exactly as given (no URL normalisation) and any Host header. */
function get(
  server: ViewerServer,
  path: string,
  host = `127.0.0.1:${server.port}`,
): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request(
      { host: "127.0.0.1", port: server.port, path, headers: { host } },
      (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => done({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", fail);
    req.end();
  });
}

describe("the viewer server", () => {
  const base = scratchDir("cclab-server-");
  const app = join(base, "app");
  const results = join(base, "results");
  let server: ViewerServer;

  beforeAll(async () => {
    mkdirSync(join(app, "assets"), { recursive: true });
    writeFileSync(join(app, "index.html"), "<!doctype html><title>app</title>");
    writeFileSync(join(app, "assets/app.js"), "console.log(1)");
    writeFileSync(join(base, "secret.txt"), "SECRET");
    symlinkSync(join(base, "secret.txt"), join(app, "assets/leak.js"));
    const run = writeRunDir(join(results, "run"));
    rmSync(join(run, "summary.txt"));
    symlinkSync(join(base, "secret.txt"), join(run, "summary.txt"));
    const sweep = writeSweepDir(join(results, "sweep"));
    server = await startServer(new Catalog([run, sweep]), app, 0);
  });
  afterAll(() => server?.close());

  it("binds 127.0.0.1 on a free port and serves the app", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const index = await get(server, "/");
    expect(index.status).toBe(200);
    expect(index.body).toContain("<title>app</title>");
    expect((await get(server, "/assets/app.js")).body).toBe("console.log(1)");
    expect(await get(server, "/data.js")).toEqual({ status: 200, body: "" });
  });

  it("answers the JSON endpoints", async () => {
    const manifest = JSON.parse((await get(server, "/api/manifest")).body) as Manifest;
    expect(manifest.runs.map((r) => r.id)).toEqual(["r0", "s1.0"]);
    const detail = JSON.parse((await get(server, "/api/run/r0")).body) as RunDetail;
    expect(detail.series.map((s) => s.name)).toContain("flow-throughput");
    const series = JSON.parse(
      (await get(server, "/api/series/r0/flow-throughput?from=50&to=150&points=100&lines=0")).body,
    ) as SeriesData;
    expect(series.lines.map((l) => l.key)).toEqual(["0"]);
    expect(series.x).toEqual([0, 100, 200]);
    expect((await get(server, "/api/run/nope")).status).toBe(404);
    expect((await get(server, "/api/series/r0/nope")).status).toBe(404);
  });

  it("never serves a file outside the app and the named folders", async () => {
    for (const path of [
      "/../secret.txt",
      "/../../../../etc/passwd",
      "/%2e%2e/secret.txt",
      "/..%2fsecret.txt",
      "/assets/..%2f..%2fsecret.txt",
      "//etc/passwd",
      "/%2Fetc%2Fpasswd",
      "/assets/leak.js",
      "/assets%5c..%5c..%5csecret.txt",
      "/api/run/..%2f..%2fsecret.txt",
      "/api/series/r0/..%2f..%2f..%2fsecret.txt",
      "/%00",
    ]) {
      const res = await get(server, path);
      expect(res.body, path).not.toContain("SECRET");
      expect(res.body, path).not.toContain("root:");
      expect(res.status, path).toBeGreaterThanOrEqual(400);
    }
    // A result's file that is a symlink out of its folder is not read either.
    const detail = JSON.parse((await get(server, "/api/run/r0")).body) as RunDetail;
    expect(detail.summaryText).toBe("");
  });

  it("refuses another Host (DNS rebinding) and methods other than GET", async () => {
    expect((await get(server, "/api/manifest", "evil.example:80")).status).toBe(403);
    const status = await new Promise<number>((done) => {
      const req = request(
        { host: "127.0.0.1", port: server.port, path: "/", method: "POST" },
        (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        },
      );
      req.end();
    });
    expect(status).toBe(405);
  });
});
