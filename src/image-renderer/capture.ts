/**
 * The screenshot of the image page, straight over the DevTools protocol. `page.screenshot({omitBackground})`
 * costs two extra round trips per image (set a transparent default background, then reset it) and each
 * round trip goes through the Browser Rendering binding; here the background is set once and only changed
 * when the output switches between alpha formats (png, webp) and jpeg. The viewport is the canvas, so no
 * clip is needed either.
 */
import { Buffer } from "node:buffer";
import type { CDPSession, Page } from "@cloudflare/puppeteer";
import { IMAGE_DEFAULTS } from "@media-render/contract/config/limits";
import { OUTPUT_FORMATS, type FormatFor } from "@media-render/contract/output-formats";

/** An image job's formats (output-formats.ts): Chromium encodes each. */
export type ImageFormat = FormatFor<"image">;

export class PageCapture {
  /** Whether the page's default background is transparent right now (unknown before the first capture). */
  private transparent?: boolean;
  private readonly session: CDPSession;

  private constructor(session: CDPSession) {
    this.session = session;
  }

  static async open(page: Page): Promise<PageCapture> {
    return new PageCapture(await page.createCDPSession());
  }

  /** Encodes the viewport. JPEG has no alpha: a transparent canvas comes out white, not black. */
  async shoot(format: ImageFormat, quality?: number): Promise<Uint8Array> {
    const { alpha, lossy } = OUTPUT_FORMATS[format];
    const transparent = alpha !== "none";
    if (this.transparent !== transparent) {
      await this.session.send(
        "Emulation.setDefaultBackgroundColorOverride",
        transparent ? { color: { r: 0, g: 0, b: 0, a: 0 } } : {},
      );
      this.transparent = transparent;
    }
    const { data } = await this.session.send("Page.captureScreenshot", {
      format,
      ...(lossy ? { quality: Math.round(quality ?? IMAGE_DEFAULTS.quality) } : {}),
      optimizeForSpeed: true,
    });
    const bytes = Buffer.from(data, "base64");
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
}
