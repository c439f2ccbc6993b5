import { readFileSync } from "node:fs";
import { extname } from "node:path";
import type { SafeDir } from "../data/safe-path.js";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".map": "application/json; charset=utf-8",
};

/** A file of the built app by its URL path (`/` is `index.html`), or undefined. */
export function appFile(app: SafeDir, urlPath: string): { body: Buffer; type: string } | undefined {
  const name = urlPath === "/" ? "index.html" : urlPath.replace(/^\//, "");
  const file = app.resolveFile(name);
  if (file === undefined) return undefined;
  return {
    body: readFileSync(file),
    type: TYPES[extname(file)] ?? "application/octet-stream",
  };
}
