/**
 * A Durable Object that keeps one Browser Rendering session and one page warm across image jobs.
 * Module-level browser state fails on the second request ("Cannot perform I/O on behalf of a different
 * request"), and launching per job costs ~0.5 s; a DO holding the page renders within 1.05-1.2x of bare
 * puppeteer (platform notes). Renders are serialised per object: one page draws one document at a time.
 *
 * Pages get no network: every request is intercepted. `https://assets.local/<r2 key>` is answered for the
 * job's own keys (from memory, else R2), `https://static.local/render/...` from the ASSETS folder
 * (catalogue fonts, html-layer libraries), `data:`/`blob:` load; everything else is refused.
 */
import puppeteer, { type Browser, type HTTPRequest, type Page } from "@cloudflare/puppeteer";
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";
import { AssetCache, type CachedAsset } from "./asset-cache.ts";
import { PageCapture, type ImageFormat } from "./capture.ts";
import { imageDeadlineSeconds } from "@media-render/contract/deadline";
import { SANDBOX_PRELUDE } from "@media-render/contract/html-sandbox";
import { RenderDeadlineExceeded } from "../lib/errors.ts";
import { ASSET_ORIGIN, STATIC_ORIGIN } from "@media-render/image-page/page-origins";

export interface ScreenshotRequest {
  html: string;
  width: number;
  height: number;
  format: ImageFormat;
  quality?: number;
  /** R2 keys the page may load (the job's own inputs); any other asset request is refused. */
  assetKeys: string[];
  /** Html layers the page waits for (each posts when loaded with fonts ready). */
  htmlLayers?: number;
  /** Extra settle time after everything loaded, seconds (html `wait`). */
  waitSeconds?: number;
  /** User scripts run on the page (enableLibraries): it is retired after the capture, never reused. */
  scripted?: boolean;
  /**
   * Where to store the image in R2. The object then puts it itself and returns only its size: the bytes
   * skip a trip back through the RPC (~10-20 ms for a 2 MB PNG locally).
   */
  output?: { key: string; contentType: string };
}

/** The image (unless it was stored), its size, and milliseconds per step in the browser object. */
export type ScreenshotResult =
  | { image?: Uint8Array; size: number; timings: Record<string, number> }
  /** The capture passed its deadline (errors lose their class over RPC, so this is an answer). */
  | { deadlineExceeded: string };

/** Longest a page may take to load and settle before the render fails (html `wait` comes on top). */
const SETTLE_TIMEOUT_MS = 20_000;

export class ImageBrowser extends DurableObject<Env> {
  private browser?: Browser;
  private page?: Page;
  private capturer?: PageCapture;
  private viewport = "";
  private queue: Promise<unknown> = Promise.resolve();
  private allowed = new Set<string>();
  private cache = new AssetCache(96 * 1024 * 1024);

  /** Renders `html` at width x height and returns the encoded image with the time each step took. */
  async screenshot(request: ScreenshotRequest): Promise<ScreenshotResult> {
    const queued = Date.now();
    const run = this.queue.then(() => this.draw(request, { waitMs: Date.now() - queued }));
    this.queue = run.catch(() => undefined);
    let drawn;
    try {
      drawn = await run;
    } catch (e) {
      if (e instanceof RenderDeadlineExceeded) return { deadlineExceeded: e.message };
      throw e;
    }
    const { image, timings } = drawn;
    if (!request.output) return { image, size: image.byteLength, timings };
    // Outside the page's queue: the next render may draw while this one uploads.
    const uploadStart = Date.now();
    await this.env.FILES.put(request.output.key, image, {
      httpMetadata: { contentType: request.output.contentType },
    });
    timings.storeMs = Date.now() - uploadStart;
    return { size: image.byteLength, timings };
  }

  private async ensurePage(): Promise<Page> {
    if (this.page && this.browser?.isConnected()) return this.page;
    if (!this.browser?.isConnected()) {
      await this.browser?.close().catch(() => undefined);
      // keep_alive (ms) keeps the remote browser through idle gaps in production; ignored locally.
      this.browser = await puppeteer.launch(this.env.BROWSER, { keep_alive: 600_000 });
    }
    const page = await this.browser.newPage();
    // In every frame, nested ones a user script creates included: no peer connections, no GPU contexts.
    await page.evaluateOnNewDocument(SANDBOX_PRELUDE);
    await page.setRequestInterception(true);
    page.on("request", (req) => void this.route(req));
    this.capturer = await PageCapture.open(page);
    this.page = page;
    this.viewport = "";
    return page;
  }

  private async route(req: HTTPRequest) {
    const url = req.url();
    if (url.startsWith("data:") || url.startsWith("blob:")) return void req.continue();
    let asset: Promise<CachedAsset | null> | null = null;
    if (url.startsWith(`${ASSET_ORIGIN}/`)) {
      const key = decodeURIComponent(url.slice(ASSET_ORIGIN.length + 1));
      if (this.allowed.has(key)) asset = this.storageAsset(key);
    } else if (url.startsWith(`${STATIC_ORIGIN}/render/`)) {
      asset = this.staticAsset(new URL(url).pathname);
    }
    if (!asset) return void req.abort("blockedbyclient").catch(() => undefined);
    try {
      const found = await asset;
      await req.respond({
        status: found ? 200 : 404,
        headers: { "access-control-allow-origin": "*" },
        contentType: found?.contentType ?? "text/plain",
        body: found?.body ?? "not found",
      });
    } catch {
      await req.abort("failed").catch(() => undefined);
    }
  }

  private storageAsset(key: string) {
    return this.cache.get(`r2:${key}`, async () => {
      const object = await this.env.FILES.get(key);
      if (!object) return null;
      return {
        body: new Uint8Array(await object.arrayBuffer()),
        contentType: object.httpMetadata?.contentType ?? "application/octet-stream",
      };
    });
  }

  private staticAsset(path: string) {
    return this.cache.get(`static:${path}`, async () => {
      const res = await this.env.ASSETS.fetch(new Request(`https://static.local${path}`));
      if (!res.ok) return null;
      return {
        body: new Uint8Array(await res.arrayBuffer()),
        contentType: res.headers.get("content-type") ?? "application/octet-stream",
      };
    });
  }

  /** Closes the page (and with it its renderer process); if even that hangs, the whole browser goes. */
  private async retirePage() {
    const page = this.page;
    this.page = undefined;
    const closed = await Promise.race([
      page?.close({ runBeforeUnload: false }).then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((r) => setTimeout(() => r(false), 2000)),
    ]);
    if (!closed) {
      const browser = this.browser;
      this.browser = undefined;
      await Promise.race([browser?.close().catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]);
    }
  }

  private async prepare(request: ScreenshotRequest): Promise<Page> {
    const page = await this.ensurePage();
    const size = `${request.width}x${request.height}`;
    if (this.viewport !== size) {
      await page.setViewport({ width: request.width, height: request.height, deviceScaleFactor: 1 });
      this.viewport = size;
    }
    return page;
  }

  private async draw(
    request: ScreenshotRequest,
    timings: Record<string, number>,
  ): Promise<{ image: Uint8Array; timings: Record<string, number> }> {
    let lapStart = Date.now();
    const lap = (name: string) => {
      const now = Date.now();
      timings[name] = now - lapStart;
      lapStart = now;
    };
    this.allowed = new Set(request.assetKeys);
    // Start loading the job's files while the page is prepared (a few at a time: memory stays bounded by the
    // cache's budget); the page's requests then find them in memory.
    const warm = (async () => {
      const keys = [...request.assetKeys];
      const lane = async () => {
        for (let k = keys.shift(); k !== undefined; k = keys.shift())
          await this.storageAsset(k).catch(() => null);
      };
      await Promise.all([lane(), lane(), lane()]);
    })();
    let page: Page;
    try {
      page = await this.prepare(request);
    } catch {
      this.page = undefined; // a dropped session: start over once
      page = await this.prepare(request);
    }
    await warm;
    lap("prepareMs");
    // The deadline is wall time for the whole capture: a page stuck in a script (which would hold every later job
    // behind puppeteer's 180 s protocol timeout) is abandoned and its browser closed, not waited for.
    const deadlineMs = imageDeadlineSeconds(request.waitSeconds ?? 0, imageCaptureSeconds(this.env)) * 1000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const overrun = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RenderDeadlineExceeded(deadlineMs / 1000)), deadlineMs);
    });
    const capturing = this.capture(page, request, lap);
    capturing.catch(() => undefined);
    try {
      const image = await Promise.race([capturing, overrun]);
      // A user script may still be running (a loop started after load): the next job gets a fresh page.
      if (request.scripted) await this.retirePage();
      return { image, timings };
    } catch (e) {
      // A page stuck in a user script or a broken session must not poison the next job.
      this.page = undefined;
      const browser = this.browser;
      this.browser = undefined;
      await Promise.race([browser?.close().catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]);
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  private async capture(
    page: Page,
    request: ScreenshotRequest,
    lap: (name: string) => void,
  ): Promise<Uint8Array> {
    await page.setContent(request.html, { waitUntil: "load", timeout: SETTLE_TIMEOUT_MS });
    lap("loadMs");
    const waitMs = Math.round((request.waitSeconds ?? 0) * 1000);
    // Runs in the page: fonts of the image page, the html layers' own readiness and the fitted text's sizes
    // (@media-render/image-page compile-html.ts; a page without them leaves both undefined or as an earlier job left them, settled), then `wait`.
    await page.evaluate(`(async () => {
      document.body.offsetWidth;
      const settle = Promise.all([document.fonts.ready, window.__mrsReady, window.__mrsFitted]);
      await Promise.race([settle, new Promise((_, no) => setTimeout(() => no(new Error("page did not settle")), ${SETTLE_TIMEOUT_MS}))]);
      if (${waitMs} > 0) await new Promise((r) => setTimeout(r, ${waitMs}));
    })()`);
    lap("settleMs");
    const shot = await this.capturer!.shoot(request.format, request.quality);
    lap("encodeMs");
    return shot;
  }
}

/**
 * Browser objects image jobs are spread over (IMAGE_BROWSERS): each holds one Browser Rendering session and renders
 * one page at a time, so this is the image concurrency. Sized to the account's Browser Rendering limits: concurrent
 * browsers (3 on Workers Free; 10 on Workers Paid in the limits this was written against, more on newer plans) and
 * new browsers per minute (the same figures): every object launches its browser again when the session dies (60 s
 * without a command), so N objects may launch N browsers in one minute. Default 4, well inside the paid limits and
 * leaving sessions for other Workers of the account; 3 at most on Workers Free.
 */
export const DEFAULT_IMAGE_BROWSERS = 4;
const MAX_IMAGE_BROWSERS = 30;

/** IMAGE_CAPTURE_SECONDS: an image capture's deadline before its `wait` (1 to 120 s; unset or out of range: 20). */
const imageCaptureSeconds = (env: Pick<Env, "IMAGE_CAPTURE_SECONDS">): number | undefined => {
  const seconds = Number(env.IMAGE_CAPTURE_SECONDS);
  return seconds >= 1 && seconds <= 120 ? seconds : undefined;
};

export const imageBrowserCount = (env: Pick<Env, "IMAGE_BROWSERS">): number =>
  Math.min(MAX_IMAGE_BROWSERS, Math.max(1, Math.floor(Number(env.IMAGE_BROWSERS)) || DEFAULT_IMAGE_BROWSERS));

export const browserFor = (env: Env, jobId: string) => {
  let h = 0;
  for (const ch of jobId) h = (h * 31 + ch.charCodeAt(0)) | 0;
  const ns = env.IMAGE_BROWSER as DurableObjectNamespace<ImageBrowser>;
  return ns.get(ns.idFromName(`image-browser-${Math.abs(h) % imageBrowserCount(env)}`));
};
