/**
 * Warm headless Chromium processes for the renderer (launching costs ~0.5 s), offline flags from the
 * team brief: one for text layers (every page gets request interception that only lets file: and
 * data: URLs through) and, launched on first use, one with `--enable-begin-frame-control` for html
 * layers, whose pages draw only when the renderer asks (HeadlessExperimental.beginFrame). That flag
 * is browser-wide and stops ordinary screenshots, hence two processes.
 */
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import puppeteer, { type Browser, type Page } from "puppeteer-core";

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

let launching: Promise<Browser> | null = null;
/** Begin-frame browsers by slot: parallel capture needs separate processes (tabs of one browser time out). */
const launchingCapture: (Promise<Browser> | null)[] = [];

/** Path of the browser binary: CHROMIUM_PATH, else Debian's headless shell (fastest), else chromium. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_HEADLESS_PATH ?? "/usr/lib/chromium/chromium-headless-shell";
}

function launch(extra: string[]): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: "shell",
    args: [...FLAGS, ...extra],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/** The shared browser, launched on first use and relaunched if it died. */
export async function getBrowser(): Promise<Browser> {
  if (launching) {
    const b = await launching.catch(() => null);
    if (b?.connected) return b;
  }
  launching = launch([]);
  return launching;
}

/** Begin-frame browser number `slot` for html layers, launched on first use and relaunched if it died. */
export async function getCaptureBrowser(slot = 0): Promise<Browser> {
  const current = launchingCapture[slot];
  if (current) {
    const b = await current.catch(() => null);
    if (b?.connected) return b;
  }
  const next = launch(BEGIN_FRAME_FLAGS);
  launchingCapture[slot] = next;
  return next;
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

async function freshPage(width: number, height: number): Promise<Page> {
  const browser = await getBrowser();
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

/** A page opened ahead of time (a new tab costs ~70 ms of a job's start-up), handed out by openPage. */
let spare: Promise<Page> | null = null;

/** Opens the next text page in the background (at a job's start if none is ready, and after each render). */
export function prepareSparePage(): void {
  if (spare) return;
  const next = freshPage(1280, 720);
  next.catch(() => {
    if (spare === next) spare = null;
  });
  spare = next;
}

/** Resolves once the spare page being opened (if any) is ready: lets a benchmark keep it off its clocks. */
export async function sparePageReady(): Promise<void> {
  await spare?.catch(() => null);
}

/**
 * A page of the given viewport showing an empty file: document, with network blocked (only file: and
 * data: load); the caller closes it.
 */
export async function openPage(width: number, height: number): Promise<Page> {
  const ready = spare;
  spare = null;
  let page = ready ? await ready.catch(() => null) : null;
  if (page && (page.isClosed() || !page.browser().connected)) page = null;
  if (page) await page.setViewport({ width, height, deviceScaleFactor: 1 });
  else page = await freshPage(width, height);
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
  await Promise.all(
    all.map(async (p) => {
      const b = p ? await p.catch(() => null) : null;
      await b?.close().catch(() => {});
    }),
  );
}
