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
import type { Env } from "../../env";
import { AssetCache, type CachedAsset } from "./asset-cache";
import { PageCapture } from "./capture";
import { ASSET_ORIGIN, STATIC_ORIGIN } from "./origins";

export { ASSET_ORIGIN } from "./origins";

export interface ScreenshotRequest {
  html: string;
  width: number;
  height: number;
  format: "png" | "jpeg" | "webp";
  quality?: number;
  /** R2 keys the page may load (the job's own inputs); any other asset request is refused. */
  assetKeys: string[];
  /** Html layers the page waits for (each posts when loaded with fonts ready). */
  htmlLayers?: number;
  /** Extra settle time after everything loaded, seconds (html `wait`). */
  waitSeconds?: number;
  /**
   * Where to store the image in R2. The object then puts it itself and returns only its size: the bytes
   * skip a trip back through the RPC (~10-20 ms for a 2 MB PNG locally).
   */
  output?: { key: string; contentType: string };
}

/** The image (unless it was stored), its size, and milliseconds per step in the browser object. */
export interface ScreenshotResult {
  image?: Uint8Array;
  size: number;
  timings: Record<string, number>;
}

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
    const { image, timings } = await run;
    if (!request.output) return { image, size: image.byteLength, timings };
    // Outside the page's queue: the next render may draw while this one uploads.
    const t = Date.now();
    await this.env.FILES.put(request.output.key, image, {
      httpMetadata: { contentType: request.output.contentType },
    });
    timings.storeMs = Date.now() - t;
    return { size: image.byteLength, timings };
  }

  private async ensurePage(): Promise<Page> {
    if (this.page && this.browser?.isConnected()) return this.page;
    await this.browser?.close().catch(() => undefined);
    // keep_alive (ms) keeps the remote browser through idle gaps in production; ignored locally.
    this.browser = await puppeteer.launch(this.env.BROWSER, { keep_alive: 600_000 });
    const page = await this.browser.newPage();
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
    let t = Date.now();
    const lap = (name: string) => {
      const now = Date.now();
      timings[name] = now - t;
      t = now;
    };
    this.allowed = new Set(request.assetKeys);
    // Start loading the job's files while the page is prepared; the page's requests then find them in memory.
    const warm = Promise.all(request.assetKeys.map((k) => this.storageAsset(k).catch(() => null)));
    let page: Page;
    try {
      page = await this.prepare(request);
    } catch {
      this.page = undefined; // a dropped session: start over once
      page = await this.prepare(request);
    }
    await warm;
    lap("prepareMs");
    try {
      const image = await this.capture(page, request, lap);
      return { image, timings };
    } catch (e) {
      // A page stuck in a user script or a broken session must not poison the next job.
      this.page = undefined;
      await this.browser?.close().catch(() => undefined);
      this.browser = undefined;
      throw e;
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
    // Runs in the page: fonts of the image page, then the html layers' own readiness, then `wait`.
    await page.evaluate(`(async () => {
      document.body.offsetWidth;
      const settle = Promise.all([document.fonts.ready, window.__mrsReady]);
      await Promise.race([settle, new Promise((_, no) => setTimeout(() => no(new Error("page did not settle")), ${SETTLE_TIMEOUT_MS}))]);
      if (${waitMs} > 0) await new Promise((r) => setTimeout(r, ${waitMs}));
    })()`);
    lap("settleMs");
    const shot = await this.capturer!.shoot(request.format, request.quality);
    lap("encodeMs");
    return shot;
  }
}

/** Number of browser objects image jobs are spread over. */
export const BROWSER_POOL_SIZE = 2;

export const browserFor = (env: Env, jobId: string) => {
  let h = 0;
  for (const ch of jobId) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return env.IMAGE_BROWSER.get(
    env.IMAGE_BROWSER.idFromName(`image-browser-${Math.abs(h) % BROWSER_POOL_SIZE}`),
  );
};
