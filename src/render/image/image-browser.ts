/**
 * A Durable Object that keeps one Browser Rendering session and one page warm across image jobs.
 * Module-level browser state fails on the second request ("Cannot perform I/O on behalf of a different
 * request"), and launching per job costs ~0.5 s; a DO holding the page renders within 1.05-1.2x of bare
 * puppeteer (platform notes). Renders are serialised per object: one page draws one document at a time.
 *
 * Pages get no network: every request is intercepted; `https://assets.local/<r2 key>` is answered from R2,
 * `data:` URLs load, everything else is refused.
 */
import puppeteer, { type Browser, type Page } from "@cloudflare/puppeteer";
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../env";

export const ASSET_ORIGIN = "https://assets.local";

export interface ScreenshotRequest {
  html: string;
  width: number;
  height: number;
  format: "png" | "jpeg" | "webp";
  quality?: number;
  /** R2 keys the page may load (the job's own inputs); any other asset request is refused. */
  assetKeys: string[];
}

export class ImageBrowser extends DurableObject<Env> {
  private browser?: Browser;
  private page?: Page;
  private queue: Promise<unknown> = Promise.resolve();
  private allowed = new Set<string>();

  /** Renders `html` at width x height and returns the encoded image. */
  async screenshot(request: ScreenshotRequest): Promise<Uint8Array> {
    const run = this.queue.then(() => this.draw(request));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async ensurePage(): Promise<Page> {
    if (this.page && this.browser?.isConnected()) return this.page;
    await this.browser?.close().catch(() => undefined);
    // keep_alive (ms) keeps the remote browser through idle gaps in production; ignored locally.
    this.browser = await puppeteer.launch(this.env.BROWSER, { keep_alive: 600_000 });
    const page = await this.browser.newPage();
    await page.setRequestInterception(true);
    page.on("request", (req) => {
      const url = req.url();
      if (url.startsWith("data:")) return void req.continue();
      const key = url.startsWith(`${ASSET_ORIGIN}/`)
        ? decodeURIComponent(url.slice(ASSET_ORIGIN.length + 1))
        : null;
      if (key !== null && this.allowed.has(key)) return void this.serveAsset(key, req);
      void req.abort("blockedbyclient");
    });
    this.page = page;
    return page;
  }

  private async serveAsset(key: string, req: import("@cloudflare/puppeteer").HTTPRequest) {
    try {
      const object = await this.env.FILES.get(key);
      if (!object)
        return void (await req.respond({
          status: 404,
          headers: {},
          contentType: "text/plain",
          body: "not found",
        }));
      await req.respond({
        status: 200,
        headers: { "access-control-allow-origin": "*" },
        contentType: object.httpMetadata?.contentType ?? "application/octet-stream",
        body: new Uint8Array(await object.arrayBuffer()),
      });
    } catch {
      await req.abort("failed").catch(() => undefined);
    }
  }

  private async draw(request: ScreenshotRequest): Promise<Uint8Array> {
    let page: Page;
    try {
      page = await this.ensurePage();
      await page.setViewport({ width: request.width, height: request.height, deviceScaleFactor: 1 });
    } catch {
      // A dropped session: start over once.
      this.page = undefined;
      page = await this.ensurePage();
      await page.setViewport({ width: request.width, height: request.height, deviceScaleFactor: 1 });
    }
    this.allowed = new Set(request.assetKeys);
    await page.setContent(request.html, { waitUntil: "load", timeout: 30_000 });
    // Runs in the page, where `document` exists (this file is typed for the Worker).
    await page.evaluate("document.fonts.ready.then(() => undefined)");
    const shot = await page.screenshot({
      type: request.format,
      ...(request.format === "png" ? {} : { quality: request.quality ?? 90 }),
      omitBackground: true,
      optimizeForSpeed: true,
      clip: { x: 0, y: 0, width: request.width, height: request.height },
    });
    return new Uint8Array(shot);
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
