import "uplot/dist/uPlot.min.css";
import "./style.css";
import type { Manifest } from "../data/types.js";
import { h } from "./dom.js";
import { homePage } from "./pages/home.js";
import { overlayPage } from "./pages/overlay.js";
import { runSeriesPage } from "./pages/run-series.js";
import { runSummaryPage } from "./pages/run-summary.js";
import { sweepPage } from "./pages/sweep.js";
import { topologyPage } from "./pages/topology.js";
import { type DataSource, dataSource } from "./source.js";

/** What every page gets: the data, the manifest and the element to draw into. */
export interface PageContext {
  readonly source: DataSource;
  readonly manifest: Manifest;
  readonly root: HTMLElement;
  /** Called with a page's clean-up (charts' listeners) when the page is left. */
  onLeave(cleanup: () => void): void;
}

type Page = (ctx: PageContext, args: string[]) => Promise<void>;

/** `#/run/<id>/series` → the series page of run <id>. */
const ROUTES: [RegExp, Page, string][] = [
  [/^\/?$/, homePage, "home"],
  [/^\/run\/([^/]+)$/, runSummaryPage, "summary"],
  [/^\/run\/([^/]+)\/series$/, runSeriesPage, "series"],
  [/^\/run\/([^/]+)\/topology$/, topologyPage, "topology"],
  [/^\/overlay\/([^/]+)$/, overlayPage, "overlay"],
  [/^\/sweep\/([^/]+)$/, sweepPage, "sweep"],
];

async function start(): Promise<void> {
  const source = dataSource();
  const root = document.getElementById("page")!;
  const manifest = await source.manifest();
  let cleanups: (() => void)[] = [];
  const show = async () => {
    for (const c of cleanups) c();
    cleanups = [];
    const path = decodeURIComponent(location.hash.replace(/^#/, ""));
    const route = ROUTES.map(([re, page, name]) => ({ m: re.exec(path), page, name })).find(
      (r) => r.m,
    );
    root.replaceChildren();
    root.dataset.page = "loading";
    const ctx: PageContext = { source, manifest, root, onLeave: (c) => cleanups.push(c) };
    try {
      if (route === undefined) throw new Error(`no page at #${path}`);
      await route.page(ctx, route.m!.slice(1));
      root.dataset.page = route.name;
    } catch (error) {
      root.replaceChildren(h("p", { className: "error" }, String(error)));
      root.dataset.page = "error";
    }
  };
  window.addEventListener("hashchange", () => void show());
  await show();
}

void start();
