import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Catalog } from "../data/catalog.js";
import { SafeDir } from "../data/safe-path.js";
import { querySeries, type SeriesQuery } from "../data/series-query.js";
import { appFile } from "./static-files.js";

export interface ViewerServer {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves the built app (`appDir`) and the catalog's data as JSON on 127.0.0.1 only:
 * `GET /api/manifest`, `/api/run/<id>`, `/api/series/<id>/<set>?from=&to=&points=&lines=`.
 * Data are looked up by id, never by a path from the request; app files are read through a
 * `SafeDir`, so no request reaches a file outside the app and the named folders. Requests
 * whose Host is not this address are refused (a web page elsewhere cannot read the results
 * through DNS rebinding).
 */
export async function startServer(
  catalog: Catalog,
  appDir: string,
  port = 0,
): Promise<ViewerServer> {
  const app = new SafeDir(appDir);
  const server = createServer((req, res) => {
    handle(req, res, catalog, app, server).catch((error: unknown) => {
      send(res, 500, "text/plain; charset=utf-8", `internal error: ${String(error)}`);
    });
  });
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => done());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/`,
    port: bound,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  catalog: Catalog,
  app: SafeDir,
  server: Server,
): Promise<void> {
  const port = (server.address() as AddressInfo).port;
  const host = req.headers.host ?? "";
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
    return send(res, 403, "text/plain; charset=utf-8", "forbidden host\n");
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    return send(res, 405, "text/plain; charset=utf-8", "only GET\n");
  }
  const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return send(res, 400, "text/plain; charset=utf-8", "bad path\n");
  }
  if (path.startsWith("/api/"))
    return api(path.slice(5).split("/"), url.searchParams, res, catalog);
  // The export's data script: a served app fetches instead, so it sets nothing here.
  if (path === "/data.js") return send(res, 200, "text/javascript; charset=utf-8", "");
  const file = appFile(app, path);
  if (file === undefined) return send(res, 404, "text/plain; charset=utf-8", "not found\n");
  return send(res, 200, file.type, file.body);
}

async function api(
  parts: string[],
  params: URLSearchParams,
  res: ServerResponse,
  catalog: Catalog,
): Promise<void> {
  const [what, id, name] = parts;
  if (what === "manifest" && parts.length === 1) return json(res, catalog.manifest);
  const run = id === undefined ? undefined : catalog.run(id);
  if (what === "run" && run !== undefined && parts.length === 2) {
    return json(res, await run.detail());
  }
  if (what === "series" && run !== undefined && name !== undefined && parts.length === 3) {
    const set = await run.set(name);
    if (set !== undefined) return json(res, querySeries(set.data, seriesQuery(params)));
  }
  return send(res, 404, "application/json", JSON.stringify({ error: "not found" }));
}

function seriesQuery(params: URLSearchParams): SeriesQuery {
  const num = (k: string) => {
    const v = params.get(k);
    return v === null || v === "" || !Number.isFinite(Number(v)) ? undefined : Number(v);
  };
  const [fromUs, toUs, points] = [num("from"), num("to"), num("points")];
  const lines = params.get("lines");
  return {
    ...(fromUs === undefined ? {} : { fromUs }),
    ...(toUs === undefined ? {} : { toUs }),
    ...(points === undefined ? {} : { points }),
    ...(lines === null ? {} : { lines: lines === "" ? [] : lines.split(",") }),
  };
}

function json(res: ServerResponse, value: unknown): void {
  send(res, 200, "application/json; charset=utf-8", JSON.stringify(value));
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  res.end(res.req.method === "HEAD" ? undefined : body);
}
