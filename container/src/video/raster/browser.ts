/**
 * Warm headless Chromium processes for the renderer (launching costs ~0.5 s), offline flags from the
 * team brief: one for text layers (every page gets request interception that only lets file: and
 * data: URLs through) and, launched on first use, one with `--enable-begin-frame-control` for html
 * layers, whose pages draw only when the renderer asks (HeadlessExperimental.beginFrame). That flag
 * is browser-wide and stops ordinary screenshots, hence two processes. Every entry point takes the binary
 * to launch (`Config.chromiumPath`), so the browser /health reports is the one that runs.
 */
import { writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { VIDEO_DEFAULTS } from "../../../../src/contract/config/limits.ts";

/** What Chromium needs to start as root on these offline machines (platform notes); the benchmarks use it too. */
export const OFFLINE_CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const FLAGS = [...OFFLINE_CHROMIUM_FLAGS, "--font-render-hinting=none", "--hide-scrollbars"];

/** Flags of the begin-frame browser: every frame is produced on demand, fully drawn, on one thread. */
const BEGIN_FRAME_FLAGS = [
  "--enable-begin-frame-control",
  "--run-all-compositor-stages-before-draw",
  "--disable-threaded-animation",
  "--disable-threaded-scrolling",
  "--disable-checker-imaging",
  "--disable-new-content-rendering-timeout",
];

/** A browser process and the binary it was launched from. */
interface Launched {
  path: string;
  browser: Promise<Browser>;
}

let launching: Launched | null = null;
/** Begin-frame browsers by slot: parallel capture needs separate processes (tabs of one browser time out). */
const launchingCapture: (Launched | null)[] = [];

function launch(path: string, extra: string[]): Launched {
  const browser = puppeteer.launch({
    executablePath: path,
    headless: "shell",
    args: [...FLAGS, ...extra],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  return { path, browser };
}

/**
 * The running browser of `current` when it was launched from `path` and is still connected; otherwise a new
 * one (a browser of another binary is closed: the configured binary is the one /health reports).
 */
async function reuseOrLaunch(current: Launched | null, path: string, extra: string[]): Promise<Launched> {
  if (current) {
    const b = await current.browser.catch(() => null);
    if (b?.connected && current.path === path) return current;
    if (b?.connected) void b.close().catch(() => {});
  }
  return launch(path, extra);
}

/** The shared browser, launched from `path` (the configured Chromium) on first use and relaunched if it died. */
export async function getBrowser(path: string): Promise<Browser> {
  const next = await reuseOrLaunch(launching, path, []);
  launching = next;
  return next.browser;
}

/** Browsers launched for one owner (a WebGL page: gl/gl-session.ts), closed with the shared ones. */
const owned = new Set<Browser>();

/**
 * A browser process of its own, with the text browser's flags: a WebGL page's, which its owner kills when a
 * shader does not finish a frame in time (SwiftShader runs a draw to its end, holding the browser's GPU process,
 * and every page on it, for as long as the shader loops). closeBrowser closes those still open.
 */
export async function launchOwnBrowser(path: string): Promise<Browser> {
  const browser = await launch(path, []).browser;
  owned.add(browser);
  browser.once("disconnected", () => owned.delete(browser));
  return browser;
}

/** Closes `browser`, killing its process if it has not gone within `graceMs` (a GPU process stuck in a draw). */
export async function closeHard(browser: Browser, graceMs = 2_000): Promise<void> {
  await Promise.race([browser.close().catch(() => {}), sleep(graceMs, undefined, { ref: false })]);
  const proc = browser.process();
  if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
}

/** Begin-frame browser number `slot` for html layers, launched on first use and relaunched if it died. */
export async function getCaptureBrowser(path: string, slot = 0): Promise<Browser> {
  const next = await reuseOrLaunch(launchingCapture[slot] ?? null, path, BEGIN_FRAME_FLAGS);
  launchingCapture[slot] = next;
  return next.browser;
}

/**
 * An empty file: document that text pages start on: a job then writes its sheet into it
 * (document.write) instead of navigating, which would cost a new renderer document (~40–80 ms), and
 * its @font-face file: URLs load as they would from any file: page.
 */
let blank: Promise<string> | null = null;
function blankDocument(): Promise<string> {
  blank ??= (async () => {
    const path = join(tmpdir(), `renderer-blank-${process.pid}.html`);
    await writeFile(path, "<!doctype html><html><head></head><body></body></html>");
    return pathToFileURL(path).href;
  })();
  return blank;
}

async function freshPage(path: string, width: number, height: number): Promise<Page> {
  const browser = await getBrowser(path);
  const page = await browser.newPage();
  await page.setViewport({ width, height, deviceScaleFactor: 1 });
  await page.setRequestInterception(true);
  page.on("request", (req) => {
    const url = req.url();
    if (url.startsWith("file:") || url.startsWith("data:") || url === "about:blank") void req.continue();
    else void req.abort("blockedbyclient");
  });
  await page.goto(await blankDocument(), { waitUntil: "load" });
  return page;
}

/**
 * A page opened ahead of time (a new tab costs ~70 ms of a job's start-up), handed out by openPage. It opens
 * at the default video size, which most jobs keep (openPage resizes it for the others).
 */
let spare: { path: string; page: Promise<Page> } | null = null;

/** Opens the next text page of browser `path` in the background (at a job's start, and after each render). */
export function prepareSparePage(path: string): void {
  if (spare?.path === path) return;
  const page = freshPage(path, VIDEO_DEFAULTS.width, VIDEO_DEFAULTS.height);
  const next = { path, page };
  page.catch(() => {
    if (spare === next) spare = null;
  });
  spare = next;
}

/** Resolves once the spare page being opened (if any) is ready: lets a benchmark keep it off its clocks. */
export async function sparePageReady(): Promise<void> {
  await spare?.page.catch(() => null);
}

/**
 * A page of the given viewport in browser `path`, showing an empty file: document, with network blocked
 * (only file: and data: load); the caller closes it.
 */
export async function openPage(path: string, width: number, height: number): Promise<Page> {
  const ready = spare?.path === path ? spare.page : null;
  if (ready) spare = null;
  let page = ready ? await ready.catch(() => null) : null;
  if (page && (page.isClosed() || !page.browser().connected)) page = null;
  if (page) await page.setViewport({ width, height, deviceScaleFactor: 1 });
  else page = await freshPage(path, width, height);
  // The next spare page is opened when the render is over (renderVideo), not now: a new tab costs
  // Chromium CPU that would compete with this job's ffmpeg for the cores.
  return page;
}

/** Closes the shared browsers (server shutdown, end of tests and benchmarks). */
export async function closeBrowser(): Promise<void> {
  const all = [launching, ...launchingCapture];
  launching = null;
  spare = null;
  launchingCapture.length = 0;
  const own = [...owned];
  owned.clear();
  // A page that never yields (an endless script) holds its browser: those are killed after the grace period.
  await Promise.all([
    ...all.map(async (p) => {
      const b = p ? await p.browser.catch(() => null) : null;
      if (b) await closeHard(b);
    }),
    ...own.map((b) => closeHard(b)),
  ]);
}
