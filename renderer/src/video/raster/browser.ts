/**
 * Warm headless Chromium processes for the renderer (launching costs ~0.5 s): one for text layers (every page
 * gets request interception that only lets through the files a page was given, answered from memory) and,
 * launched on first use, one with `--enable-begin-frame-control` for html layers, whose pages draw only when the
 * renderer asks (HeadlessExperimental.beginFrame). That flag is browser-wide and stops ordinary screenshots, hence
 * two processes. Every one is started by launch-chromium.ts (an unprivileged user, Chromium's sandbox where it
 * starts, nothing of our environment). Every entry point takes the binary to launch (`Config.chromiumPath`), so the
 * browser /health reports is the one that runs.
 */
import { readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser, HTTPRequest, Page } from "puppeteer-core";
import { VIDEO_DEFAULTS } from "@media-render/contract/config/limits";
import isolation from "./chromium-isolation.json" with { type: "json" };
import { launchChromium, type ChromiumLaunch } from "./launch-chromium.ts";

export type { ChromiumLaunch };

/**
 * No GPU for the text and html browsers: text sheets and html layers have no use for one (no html-layer library
 * draws with WebGL), and a page's script could otherwise reach SwiftShader's compiler through WebGL on a canvas,
 * an OffscreenCanvas (in a worker too), a frame of its own, or WebGPU. `--disable-software-rasterizer` leaves
 * Chromium no GL at all (with `--disable-gpu` there is no hardware one), which closes every such entry point in
 * every realm, and WebGPU gets no adapter; `--disable-3d-apis` also turns WebGL off in Blink itself. The prelude's
 * JavaScript patches (packages/contract/src/html-sandbox.ts) are only a courtesy on top: a script can reach a fresh realm.
 * The flags live in chromium-isolation.json, which the local Browser Rendering launcher (scripts/lib/local-chrome.mjs)
 * reads too.
 */
const NO_GPU_FLAGS: string[] = isolation.noGpuFlags;

/** Flags of every browser here besides the isolation's (launch-chromium.ts, NO_GPU_FLAGS). */
export const BROWSER_FLAGS = ["--font-render-hinting=none", "--hide-scrollbars"];

/**
 * Flags of the begin-frame browser: every frame is produced on demand, fully drawn, on one thread. (Exported for
 * bench/_html-capture.ts, which measures what the isolation costs against a browser started without it.)
 */
export const BEGIN_FRAME_FLAGS = [
  "--enable-begin-frame-control",
  "--run-all-compositor-stages-before-draw",
  "--disable-threaded-animation",
  "--disable-threaded-scrolling",
  "--disable-checker-imaging",
  "--disable-new-content-rendering-timeout",
];

/** A browser process and what it was launched from. */
interface Launched {
  from: string;
  browser: Promise<Browser>;
}

/** What a running browser must match to serve a launch request: the binary, its user and sandbox setting. */
const launchKey = (chromium: ChromiumLaunch): string =>
  `${chromium.chromiumPath}\0${chromium.chromiumUser}\0${chromium.chromiumSandbox}`;

let launching: Launched | null = null;
/** Begin-frame browsers by slot: parallel capture needs separate processes (tabs of one browser time out). */
const launchingCapture: (Launched | null)[] = [];

const launch = (chromium: ChromiumLaunch, role: string, extra: string[]): Launched => {
  return { from: launchKey(chromium), browser: launchChromium(chromium, role, [...BROWSER_FLAGS, ...extra]) };
};

/**
 * The running browser of `current` when it was launched as `chromium` asks and is still connected; otherwise a new one
 * (a browser of another binary is closed: the configured binary is the one /health reports).
 */
const reuseOrLaunch = async (
  current: Launched | null,
  chromium: ChromiumLaunch,
  role: string,
  extra: string[],
): Promise<Launched> => {
  if (current) {
    const browser = await current.browser.catch(() => null);
    // A browser being closed (a job's deadline killed its page) is not handed out: it stays "connected" until
    // its process has gone.
    if (browser?.connected && !closing.has(browser) && current.from === launchKey(chromium)) return current;
    if (browser?.connected) void browser.close().catch(() => {});
  }
  return launch(chromium, role, extra);
};

/** The shared (text) browser of Chromium `chromium`, launched on first use and relaunched if it died. No GPU. */
export const getBrowser = async (chromium: ChromiumLaunch): Promise<Browser> => {
  const next = await reuseOrLaunch(launching, chromium, "text", NO_GPU_FLAGS);
  launching = next;
  return next.browser;
};

/** Browsers launched for one owner (a WebGL page: gl/gl-session.ts), closed with the shared ones. */
const owned = new Set<Browser>();

/**
 * A browser process of its own for a job's WebGL page (it keeps its GL: SwiftShader, no GPU here), which its
 * owner closes with the job and kills when a shader does not finish a frame in time (SwiftShader runs a draw to
 * its end, holding the browser's GPU process, and every page on it, for as long as the shader loops).
 * closeBrowser closes those still open.
 */
export const launchOwnBrowser = async (chromium: ChromiumLaunch): Promise<Browser> => {
  const browser = await launch(chromium, "gl", []).browser;
  owned.add(browser);
  browser.once("disconnected", () => owned.delete(browser));
  return browser;
};

/** Browsers closeHard is closing. */
const closing = new WeakSet<Browser>();

/** Closes `browser`, killing its process if it has not gone within `graceMs` (a GPU process stuck in a draw). */
export const closeHard = async (browser: Browser, graceMs = 2_000): Promise<void> => {
  closing.add(browser);
  await Promise.race([browser.close().catch(() => {}), sleep(graceMs, undefined, { ref: false })]);
  const proc = browser.process();
  if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
};

/** Begin-frame browser number `slot` for html layers, launched on first use and relaunched if it died. No GPU. */
export const getCaptureBrowser = async (chromium: ChromiumLaunch, slot = 0): Promise<Browser> => {
  const next = await reuseOrLaunch(launchingCapture[slot] ?? null, chromium, "capture", [
    ...NO_GPU_FLAGS,
    ...BEGIN_FRAME_FLAGS,
  ]);
  launchingCapture[slot] = next;
  return next.browser;
};

/**
 * The empty file: document text pages start on: a job then writes its sheet into it (document.write) instead of
 * navigating, which would cost a new renderer document (~40–80 ms), and its @font-face file: URLs load as from
 * any file: page. It is answered from memory, like the font files a page is given (servePageFiles): the browser
 * runs as a user that cannot read the renderer's files, jobs' uploads included.
 */
const BLANK_URL = pathToFileURL(join(tmpdir(), "renderer-text-page.html")).href;
const BLANK_DOCUMENT = "<!doctype html><html><head></head><body></body></html>";

/** Local files each text page may load (by file: URL), answered from memory. */
const pageFiles = new WeakMap<Page, Set<string>>();

/** Lets `page` load `paths` by their file: URLs (a job's uploaded fonts, catalogue fonts); nothing else loads. */
export const servePageFiles = (page: Page, paths: readonly string[]): void => {
  const allowed = pageFiles.get(page);
  for (const path of paths) allowed?.add(pathToFileURL(path).href);
};

const answer = async (page: Page, req: HTTPRequest): Promise<void> => {
  const url = req.url();
  try {
    if (url === BLANK_URL)
      return await req.respond({ status: 200, contentType: "text/html", body: BLANK_DOCUMENT });
    if (pageFiles.get(page)?.has(url))
      return await req.respond({ status: 200, body: await readFile(fileURLToPath(url)) });
    if (url.startsWith("data:") || url === "about:blank") return await req.continue();
    await req.abort("blockedbyclient");
  } catch {
    await req.abort("failed").catch(() => {});
  }
};

const freshPage = async (chromium: ChromiumLaunch, width: number, height: number): Promise<Page> => {
  const browser = await getBrowser(chromium);
  const page = await browser.newPage();
  pageFiles.set(page, new Set());
  await page.setViewport({ width, height, deviceScaleFactor: 1 });
  await page.setRequestInterception(true);
  page.on("request", (req) => void answer(page, req));
  await page.goto(BLANK_URL, { waitUntil: "load" });
  return page;
};

/**
 * A page opened ahead of time (a new tab costs ~70 ms of a job's start-up), handed out by openPage. It opens
 * at the default video size, which most jobs keep (openPage resizes it for the others).
 */
let spare: { from: string; page: Promise<Page> } | null = null;

/** Opens the next text page of Chromium `chromium` in the background (at a job's start, and after each render). */
export const prepareSparePage = (chromium: ChromiumLaunch): void => {
  if (spare?.from === launchKey(chromium)) return;
  const page = freshPage(chromium, VIDEO_DEFAULTS.width, VIDEO_DEFAULTS.height);
  const next = { from: launchKey(chromium), page };
  page.catch(() => {
    if (spare === next) spare = null;
  });
  spare = next;
};

/** Resolves once the spare page being opened (if any) is ready: lets a benchmark keep it off its clocks. */
export const sparePageReady = async (): Promise<void> => {
  await spare?.page.catch(() => null);
};

/**
 * A page of the given viewport in Chromium `chromium`, showing an empty file: document, with network blocked (only
 * data: URLs and the files given by servePageFiles load); the caller closes it.
 */
export const openPage = async (chromium: ChromiumLaunch, width: number, height: number): Promise<Page> => {
  const ready = spare?.from === launchKey(chromium) ? spare.page : null;
  if (ready) spare = null;
  let page = ready ? await ready.catch(() => null) : null;
  if (page && (page.isClosed() || !page.browser().connected)) page = null;
  if (page) await page.setViewport({ width, height, deviceScaleFactor: 1 });
  else page = await freshPage(chromium, width, height);
  // The next spare page is opened when the render is over (renderVideo), not now: a new tab costs
  // Chromium CPU that would compete with this job's ffmpeg for the cores.
  return page;
};

/** Closes the shared browsers (server shutdown, end of tests and benchmarks). */
export const closeBrowser = async (): Promise<void> => {
  const all = [launching, ...launchingCapture];
  launching = null;
  spare = null;
  launchingCapture.length = 0;
  const own = [...owned];
  owned.clear();
  // A page that never yields (an endless script) holds its browser: those are killed after the grace period.
  await Promise.all([
    ...all.map(async (launched) => {
      const browser = launched ? await launched.browser.catch(() => null) : null;
      if (browser) await closeHard(browser);
    }),
    ...own.map((b) => closeHard(b)),
  ]);
};
