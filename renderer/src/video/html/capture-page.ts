/**
 * A page for one html layer: its own browser context, request interception that answers only the
 * layer document and the library files from memory (everything else, http to loopback included, is
 * refused before it leaves the browser), a transparent default background, and a `frame()` that
 * returns the page as a PNG: HeadlessExperimental.beginFrame on the begin-frame browser (52+ fps
 * at 720p here), or page.screenshot on the ordinary browser as the fallback.
 */
import { readFile } from "node:fs/promises";
import type { Browser, BrowserContext, CDPSession, HTTPRequest, Page } from "puppeteer-core";
import type { CaptureMethod } from "../render-tools.ts";
import { closeHard, getBrowser, getCaptureBrowser, type ChromiumLaunch } from "../raster/browser.ts";
import { librarySource } from "./libraries.ts";
import { catalogFontFileById } from "../../fonts/files.ts";
import { HTML_ORIGIN, PAGE_POLICY } from "./page.ts";
import { Defect } from "@media-render/contract/faults";

export type { CaptureMethod };

export interface CapturePage {
  page: Page;
  method: CaptureMethod;
  /** The current state of the page as PNG bytes. */
  frame(): Promise<Buffer>;
  /** Moves the page's virtual clock (clock-shim.ts) to each of `targets` (ms) in order; resolves with its time. */
  advance(targets: readonly number[]): Promise<number>;
  close(): Promise<void>;
}

const busySlots = new Set<number>();

/**
 * Reserves a begin-frame browser process for one capturing page (the lowest free slot), so concurrent
 * jobs never put two capturing tabs in one process (they time out). Call `release` when done.
 */
export const leaseSlot = (): { slot: number; release: () => void } => {
  let slot = 0;
  while (busySlots.has(slot)) slot++;
  busySlots.add(slot);
  return { slot, release: () => void busySlots.delete(slot) };
};

const route = async (req: HTTPRequest, doc: string): Promise<void> => {
  const url = req.url();
  try {
    if (url === `${HTML_ORIGIN}/`) {
      return await req.respond({
        status: 200,
        contentType: "text/html; charset=utf-8",
        headers: { "content-security-policy": `sandbox allow-scripts;${PAGE_POLICY}` },
        body: doc,
      });
    }
    const lib = /^https:\/\/html-layer\.local\/lib\/([a-z]+)\.js$/.exec(url);
    if (lib) {
      const body = await librarySource(lib[1]!);
      return await req.respond({ status: 200, contentType: "text/javascript", body });
    }
    const font = /^https:\/\/html-layer\.local\/fonts\/([a-z0-9-]+)\/(\d+)-([a-z0-9-]+)\.woff2$/.exec(url);
    const fontFile = font ? catalogFontFileById(font[1]!, Number(font[2]), font[3]!) : null;
    if (fontFile) {
      // The sandboxed page has an opaque origin: font loads are CORS requests.
      const body = await readFile(fontFile);
      return await req.respond({
        status: 200,
        contentType: "font/woff2",
        headers: { "access-control-allow-origin": "*" },
        body,
      });
    }
    if (url.startsWith("data:") || url === "about:blank") return await req.continue();
    await req.abort("blockedbyclient");
  } catch {
    await req.abort("failed").catch(() => {});
  }
};

/** A target of its own context in begin-frame browser `browser`, drawing only when beginFrame asks. */
const beginFrameTarget = async (
  browser: Browser,
  w: number,
  h: number,
): Promise<{ ctx: BrowserContext; page: Page }> => {
  const ctx = await browser.createBrowserContext();
  const session = await browser.target().createCDPSession();
  try {
    // puppeteer's newPage() cannot ask for begin-frame control; the raw CDP call can.
    const { targetId } = await session.send("Target.createTarget", {
      url: "about:blank",
      width: w,
      height: h,
      browserContextId: ctx.id,
      enableBeginFrameControl: true,
    });
    const target = await browser.waitForTarget(
      (t) => t.url() === "about:blank" && targetIdOf(t) === targetId,
      {
        timeout: 10_000,
      },
    );
    const page = await target.page();
    if (!page) throw new Defect("capture target has no page");
    return { ctx, page };
  } finally {
    await session.detach().catch(() => {});
  }
};

const newPage = async (
  chromium: ChromiumLaunch,
  method: CaptureMethod,
  w: number,
  h: number,
  slot: number,
): Promise<{ ctx: BrowserContext; page: Page }> => {
  if (method === "screenshot") {
    const ctx = await (await getBrowser(chromium)).createBrowserContext();
    return { ctx, page: await ctx.newPage() };
  }
  return beginFrameTarget(await getCaptureBrowser(chromium, slot), w, h);
};

/** puppeteer keeps the CDP target id private; `_targetId` is stable across its versions. */
const targetIdOf = (t: unknown): string | undefined => {
  return (t as { _targetId?: string })._targetId;
};

/** Loads `doc` into the new page `page` of its own context `ctx`: the CapturePage. */
const loadPage = async (
  { ctx, page }: { ctx: BrowserContext; page: Page },
  doc: string,
  w: number,
  h: number,
  method: CaptureMethod,
  signal?: AbortSignal,
): Promise<CapturePage> => {
  const stop = () => void (method === "beginframe" ? closeHard(page.browser()) : ctx.close().catch(() => {}));
  signal?.addEventListener("abort", stop, { once: true });
  if (signal?.aborted) stop();
  const close = async () => {
    signal?.removeEventListener("abort", stop);
    await ctx.close().catch(() => {});
  };
  try {
    const session: CDPSession = await page.createCDPSession();
    await page.setViewport({ width: w, height: h, deviceScaleFactor: 1 });
    await session.send("Emulation.setDefaultBackgroundColorOverride", { color: { r: 0, g: 0, b: 0, a: 0 } });
    await page.setRequestInterception(true);
    page.on("request", (req) => void route(req, doc));
    await page.goto(`${HTML_ORIGIN}/`, { waitUntil: "load", timeout: 20_000 });
    let last: Buffer | null = null;
    const frame = async (): Promise<Buffer> => {
      if (method === "screenshot") {
        return Buffer.from(
          await page.screenshot({ type: "png", optimizeForSpeed: true, captureBeyondViewport: false }),
        );
      }
      // A frame without damage carries no screenshot: the picture is unchanged, reuse the last one.
      for (let attempt = 0; attempt < 3; attempt++) {
        const answer = await session.send("HeadlessExperimental.beginFrame", {
          screenshot: { format: "png", optimizeForSpeed: true },
        });
        if (answer.screenshotData) last = Buffer.from(answer.screenshotData, "base64");
        if (last) return last;
      }
      throw new Error("Chromium produced no frame");
    };
    // One CDP call on the page's own session for any number of clock steps: puppeteer's evaluate costs a
    // function serialisation and a context lookup per call, and every call is a round trip to the page.
    const advance = async (targets: readonly number[]): Promise<number> => {
      const list = targets.map((t) => Number(t)).join(",");
      const answer = await session.send("Runtime.evaluate", {
        expression: `window.__mrsAdvanceAll([${list}])`,
        returnByValue: true,
        awaitPromise: true,
      });
      if (answer.exceptionDetails) {
        const thrown = answer.exceptionDetails;
        throw new Error(thrown.exception?.description ?? thrown.text);
      }
      return Number(answer.result.value);
    };
    return { page, method, frame, advance, close };
  } catch (e) {
    await close();
    throw e;
  }
};

/**
 * Opens a w x h page showing `doc` in Chromium `chromium`, loaded and not yet advanced by the clock.
 * `slot` picks the begin-frame browser process (parallel capture uses one process per worker). When `signal`
 * aborts (the job's deadline, a cancel), what this page holds is stopped at once, and nothing else: a page
 * stuck in a script holds its renderer process, so the begin-frame browser of its slot (leased to this page
 * alone) is killed, and a page of the shared browser (the screenshot method) has its context closed; the
 * other jobs' pages live on.
 */
export const openCapturePage = async (
  chromium: ChromiumLaunch,
  doc: string,
  w: number,
  h: number,
  method: CaptureMethod,
  slot = 0,
  signal?: AbortSignal,
): Promise<CapturePage> => loadPage(await newPage(chromium, method, w, h, slot), doc, w, h, method, signal);

/**
 * The same page in a begin-frame browser launched elsewhere: bench/_html-capture.ts measures what the isolation
 * (launch-chromium.ts) costs the capture against a browser started without it.
 */
export const openCapturePageIn = async (
  browser: Browser,
  doc: string,
  w: number,
  h: number,
): Promise<CapturePage> => loadPage(await beginFrameTarget(browser, w, h), doc, w, h, "beginframe");
