/**
 * The viewer end to end in headless Chromium (Debian's `chromium`, driven by playwright-core):
 * the built `cclab` runs the demo's scenario and a CC run with 1 µs bins, and a tiny sweep;
 * `cclab view` serves them; every page draws without console errors, a series zooms (and the
 * other charts follow), the topology colours links by blocking and by utilisation over a
 * window, two runs overlay, a sweep cell opens its run, and the static export
 * opens from file://. Screenshots go to a folder whose path is printed (CCLAB_SCREENSHOTS
 * names one), each checked not blank. Needs `npm run build` first, as the CLI's tests do.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchDir } from "../../../packages/sim/test/scratch-dir.js";
import { pngContent } from "./png-check.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CLI = join(ROOT, "apps/cli/dist/cli.js");
const CHROMIUM = "/usr/bin/chromium";
const missing = [
  ...(existsSync(CHROMIUM) ? [] : [`${CHROMIUM} (apt-get install chromium)`]),
  ...(existsSync(join(ROOT, "apps/cli/dist/viewer/index.html"))
    ? []
    : [`${CLI} with the viewer (npm run build)`]),
];
const skip = missing.length > 0 && process.env.CI === undefined;
if (skip) console.warn(`viewer e2e skipped: missing ${missing.join(", ")}`);

const work = scratchDir("cclab-viewer-e2e-");
const shots = process.env.CCLAB_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "cclab-viewer-shots-"));
const demo = join(work, "demo-parking-lot");
const cc = join(work, "parking-lot-cc");
const fine = join(work, "parking-lot-cc-1us");
const tcd = join(work, "tcd-points-two-ib");
const sweepOut = join(work, "tiny-sweep");
const exported = join(work, "export");

function cclab(args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`cclab ${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
  return r.stdout;
}

/** The runs and the sweep the pages show: about 3 s of simulation on one core. */
function makeResults(): void {
  cclab([
    "run",
    "scenarios/gran-thesis/parking-lot-no-cc.yaml",
    "--out",
    demo,
    "--quiet",
    "--no-plots",
  ]);
  const flows = [1, 2, 3, 4].flatMap((i) => [
    "--set",
    `traffic[0].flows[${i}].startNs=${i * 1_000_000}`,
  ]);
  const series =
    "metrics.series=[flow-throughput,host-throughput,port-occupancy,egress-occupancy,flow-control,link-throughput,cc]";
  // The same run with 50 µs bins (overlaid on the demo's) and with 1 µs bins (zoomed).
  for (const [out, binUs] of [
    [cc, 50],
    [fine, 1],
  ] as const) {
    cclab([
      "run",
      "scenarios/gran-thesis/parking-lot-cc.yaml",
      ...["--out", out, "--quiet", "--no-plots", "--set", "run.durationUs=5000"],
      ...["--set", `metrics.binUs=${binUs}`, "--set", series, ...flows],
    ]);
  }
  // TCD's states per egress queue (value names on the axis) on a generic topology.
  cclab(
    ["run", "scenarios/tcd/points-two-ib.yaml", "--out", tcd, "--quiet", "--no-plots"].concat([
      "--set",
      "run.durationUs=5000",
    ]),
  );
  const sweepFile = join(work, "tiny.sweep.yaml");
  // JSON is YAML, and keeps `traffic[0]…` keys plain.
  writeFileSync(
    sweepFile,
    JSON.stringify({
      name: "tiny-sweep",
      base: join(ROOT, "scenarios/gran-thesis/parking-lot-cc.yaml"),
      set: {
        "run.durationUs": 2000,
        "metrics.binUs": 50,
        "traffic[0].flows[1].startNs": 0,
        "traffic[0].flows[2].startNs": 100_000,
        "traffic[0].flows[3].startNs": 200_000,
        "traffic[0].flows[4].startNs": 300_000,
      },
      axes: {
        "cc.hosts[0].params.cctiTimerUs": [20, 300],
        "cc.switch.params.markingRate": [0, 10],
      },
      keepSeries: true,
    }),
  );
  cclab(["sweep", sweepFile, "--out", sweepOut, "--threads", "2", "--quiet"]);
}

let server: ChildProcess | undefined;
let url = "";
let context: BrowserContext;
const errors: string[] = [];

async function startView(dirs: string[]): Promise<string> {
  const child = spawn(process.execPath, [CLI, "view", ...dirs, "--port", "0"], { cwd: ROOT });
  server = child;
  return new Promise((done, fail) => {
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /cclab view: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m !== null) done(m[1]!);
    });
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.on("exit", (code) => fail(new Error(`cclab view exited ${code}: ${out}`)));
  });
}

async function open(path: string, base = url): Promise<Page> {
  const page = await context.newPage();
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`${path}: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`${path}: ${e.message}`));
  await page.goto(`${base}${path}`);
  return page;
}

/** Waits for the page's content to be drawn, then checks no error was logged. */
async function drawn(page: Page, name: string): Promise<void> {
  await page.waitForSelector(`#page[data-page="${name}"]`, { timeout: 15_000 });
  expect(errors).toEqual([]);
}

async function screenshot(page: Page, name: string): Promise<void> {
  const file = join(shots, `${name}.png`);
  const png = await page.screenshot({ path: file, fullPage: true });
  const { colours, inked } = pngContent(png);
  expect(colours, `${file}: distinct colours`).toBeGreaterThan(30);
  expect(inked, `${file}: share of non-background pixels`).toBeGreaterThan(0.02);
}

describe.skipIf(skip)("cclab view in Chromium", () => {
  beforeAll(async () => {
    expect(missing, "the e2e test needs these (CI runs it)").toEqual([]);
    mkdirSync(shots, { recursive: true });
    console.log(`viewer e2e screenshots: ${shots}`);
    makeResults();
    url = await startView([demo, cc, fine, tcd, sweepOut]);
    context = await chromium.launchPersistentContext(join(work, "chromium-profile"), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    server?.kill("SIGTERM");
  });

  it("lists the runs and the sweep", async () => {
    const page = await open("#/");
    await drawn(page, "home");
    expect(await page.locator("table.runs tbody tr").count()).toBe(4);
    expect(await page.locator("text=tiny-sweep").count()).toBeGreaterThan(0);
    await screenshot(page, "home");
  });

  it("shows the run summary as sortable tables", async () => {
    const page = await open("#/run/r0");
    await drawn(page, "summary");
    expect(await page.locator("table.sortable").count()).toBeGreaterThanOrEqual(3);
    const flows = page.locator('.table-wrap[data-table="Flows"]');
    const column = flows.locator('th[data-col="window Gb/s"]');
    await column.click();
    await column.click(); // descending
    const first = await flows.locator("tbody tr").first().locator("td").first().textContent();
    expect(first).toBe("H1→H4"); // the victim, 7.53 Gb/s, is the fastest flow
    await screenshot(page, "summary");
  });

  it("draws every series and zooms: the range narrows, all charts follow, full resolution", async () => {
    const overview = await open("#/run/r1/series");
    await drawn(overview, "series");
    await overview.locator("section.chart canvas").first().waitFor();
    await screenshot(overview, "series");
    const page = await open("#/run/r2/series");
    await drawn(page, "series");
    const charts = page.locator("section.chart");
    const names = await charts.evaluateAll((els) => els.map((e) => e.getAttribute("data-chart")));
    expect(names).toEqual(
      expect.arrayContaining([
        "flow-throughput",
        "group-throughput",
        "host-throughput",
        "port-occupancy",
        "egress-occupancy",
        "flow-control",
        "link-throughput",
        "cc-ccti",
        "cc-rateGbps",
      ]),
    );
    expect(await page.locator("section.chart canvas").count()).toBe(names.length);
    const first = charts.first();
    expect(await first.getAttribute("data-full")).toBe("false"); // 5000 bins, downsampled
    const before =
      Number(await first.getAttribute("data-to")) - Number(await first.getAttribute("data-from"));
    const over = first.locator(".u-over");
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.45, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(() => {
      const c = document.querySelector("section.chart");
      return c?.getAttribute("data-full") === "true";
    });
    const from = Number(await first.getAttribute("data-from"));
    const to = Number(await first.getAttribute("data-to"));
    expect(to - from).toBeLessThan(before * 0.25);
    expect(from).toBeGreaterThan(1000);
    const last = charts.last();
    expect(Number(await last.getAttribute("data-from"))).toBeCloseTo(from, 3);
    // Hover shows each line's value in the legend.
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
    const value = await first
      .locator(".u-legend .u-series")
      .nth(1)
      .locator(".u-value")
      .textContent();
    expect(value).toMatch(/\d/);
    expect(errors).toEqual([]);
    await screenshot(page, "series-zoomed");
  });

  it("draws the topology with links coloured by blocking over a window", async () => {
    const page = await open("#/run/r1/topology");
    await drawn(page, "topology");
    expect(await page.locator("svg.topology-svg .node.host").count()).toBe(7);
    expect(await page.locator("svg.topology-svg .node.switch").count()).toBe(2);
    await page.selectOption("#topo-mode", "blocked");
    await page.waitForSelector('.topology[data-mode="blocked"]');
    const strokes = await page
      .locator("svg.topology-svg line[data-port]")
      .evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute("stroke")))]);
    expect(strokes.length).toBeGreaterThan(1);
    await page.fill("#topo-from", "4000");
    await page.click("#topo-apply");
    await page.waitForSelector("svg.topology-svg");
    await screenshot(page, "topology");
    await page.selectOption("#topo-mode", "utilisation");
    await page.waitForSelector('.topology[data-mode="utilisation"]');
    expect(await page.locator("#topo-note").textContent()).toContain("over the whole run");
    expect(errors).toEqual([]);
  });

  it("colours links by utilisation over a window (link-throughput.csv), by default", async () => {
    const page = await open("#/run/r1/topology");
    await drawn(page, "topology");
    expect(await page.locator("#topo-mode").inputValue()).toBe("utilisation-window");
    await page.waitForSelector('.topology[data-mode="utilisation-window"]');
    // Each half cable: its port, stroke and the value its tooltip gives.
    const halves = async () =>
      new Map(
        (
          await page
            .locator("svg.topology-svg line[data-port]")
            .evaluateAll((els) =>
              els.map((e) => [
                e.getAttribute("data-port")!,
                e.getAttribute("stroke")!,
                e.querySelector("title")?.textContent ?? "",
              ]),
            )
        ).map(([port, stroke, title]) => [
          port!,
          { stroke: stroke!, value: Number(/: ([\d.]+) %$/.exec(title!)?.[1]) },
        ]),
      );
    // Over the whole run (the default window), the window's mean is the run's utilisation.
    const windowed = await halves();
    await page.selectOption("#topo-mode", "utilisation");
    await page.waitForSelector('.topology[data-mode="utilisation"]');
    const whole = await halves();
    expect(whole.size).toBe(16);
    for (const [port, { value }] of whole) {
      expect(windowed.get(port)!.value, port).toBeCloseTo(value, 1);
    }
    await page.selectOption("#topo-mode", "utilisation-window");
    await page.waitForSelector('.topology[data-mode="utilisation-window"]');
    await page.fill("#topo-from", "2000");
    await page.fill("#topo-to", "3000");
    await page.click("#topo-apply");
    await page.waitForSelector("#topo-note:has-text('from 2000 to 3000 µs')");
    const idle = "rgb(212,212,212)";
    const drawn2 = await halves();
    // The victim's path (H1 → S1 → S2 → H4) and the hot spot's link into H5 carried traffic;
    // H6 and H7 start sending after 3 ms.
    for (const port of ["H1.p0", "S1.p3", "S2.p1", "S2.p2"]) {
      expect(drawn2.get(port)!.stroke, port).not.toBe(idle);
      expect(drawn2.get(port)!.value, port).toBeGreaterThan(20);
    }
    for (const port of ["H6.p0", "H7.p0"]) expect(drawn2.get(port)!.stroke, port).toBe(idle);
    expect(await page.locator("#topo-note").textContent()).toContain(
      "percentage of the link's rate",
    );
    expect(errors).toEqual([]);
    await screenshot(page, "topology-utilisation-window");
  });

  it("names TCD's states on the axis, and lays out a generic topology", async () => {
    const page = await open("#/run/r3/series");
    await drawn(page, "series");
    const chart = page.locator('section.chart[data-chart="cc-queues-state"]');
    await chart.locator("canvas").waitFor();
    // The axis is drawn on the canvas; the legend names the state under the cursor.
    const box = (await chart.locator(".u-over").boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    const values = await chart.locator(".u-legend .u-series .u-value").allTextContents();
    expect(
      values.slice(1).some((v) => /^(NC|CHECK|U|C): /.test(v)),
      values.join(" | "),
    ).toBe(true);
    await screenshot(page, "tcd-series");
    const topo = await open("#/run/r3/topology");
    await drawn(topo, "topology");
    expect(await topo.locator("svg.topology-svg .node.host").count()).toBe(6);
    expect(await topo.locator("svg.topology-svg .node.switch").count()).toBe(3);
    await screenshot(topo, "tcd-topology");
  });

  it("overlays two runs", async () => {
    const page = await open("#/");
    await drawn(page, "home");
    await page.check('input[data-run="r0"]');
    await page.check('input[data-run="r1"]');
    await page.click("#overlay-go");
    await drawn(page, "overlay");
    const chart = page.locator('section.chart[data-chart="group-throughput"]');
    await chart.locator("canvas").waitFor();
    const labels = await chart.locator(".u-legend .u-label").allTextContents();
    expect(labels.some((l) => l.startsWith("demo-parking-lot:"))).toBe(true);
    expect(labels.some((l) => l.startsWith("parking-lot-cc:"))).toBe(true);
    await screenshot(page, "overlay");
  });

  it("draws the sweep's heat map; a cell opens its point's run", async () => {
    const page = await open("#/sweep/s4");
    await drawn(page, "sweep");
    expect(await page.locator("svg.heatmap a.cell").count()).toBe(4);
    await screenshot(page, "sweep");
    await page.locator("svg.heatmap a.cell").first().click();
    await drawn(page, "summary");
    expect(page.url()).toMatch(/#\/run\/s4\.\d$/);
  });

  it("exports a folder that opens from file:// without a server", async () => {
    const out = cclab(["view", demo, cc, sweepOut, "--export", exported]);
    expect(out).toContain("exported to");
    const base = pathToFileURL(join(exported, "index.html")).href;
    const page = await open("#/run/r1/series", base);
    await drawn(page, "series");
    expect(await page.locator("section.chart canvas").count()).toBeGreaterThan(5);
    await screenshot(page, "export-series");
    const sweep = await open("#/sweep/s2", base); // this export's third folder
    await drawn(sweep, "sweep");
    expect(await sweep.locator("svg.heatmap a.cell").count()).toBe(4);
  });
});
