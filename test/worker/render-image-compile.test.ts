/**
 * The image compile step (packages/image-page/src/compile-html.ts) as two callers use it: the image browser's document
 * (the intercepted origins) and the builder's preview (its parts, drawn with real URLs: this origin for fonts and
 * libraries, blob: URLs for stored files). Both must draw the same layers from the same config.
 */
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { ImageConfigSchema } from "@media-render/contract/config";
import { FIT_SELECTOR, FIT_TEXT_FUNCTION } from "@media-render/contract/fit-text";
import { compileImage, compileImageParts, PAGE_POLICY } from "@media-render/image-page/compile-html";

const config = v.parse(ImageConfigSchema, {
  width: 500,
  height: 300,
  backgroundColor: "#123456",
  defaults: { layerType: { text: { color: "#ff0000" } } },
  layers: [
    { type: "image", path: "/image/2026-11-27/u/a.png", x: 10, y: 10, width: 100, height: 80, fit: "cover" },
    { type: "text", text: "Hi <b>", googleFont: "Poppins:700", position: "center" },
    { type: "text", text: "Up", fontPath: "/font/2026-11-27/u/f.woff2", x: 5, y: 5 },
    { type: "html", html: "<b>x</b>", googleFonts: ["Inter"], enableLibraries: true, width: 100, height: 50 },
    { type: "rectangle", x: 1, y: 2, width: 3, height: 4, rotation: 10 },
  ],
});
const sizes = new Map([["/image/2026-11-27/u/a.png", { width: 400, height: 300 }]]);
/** The html sandbox draws a fresh nonce per document. */
const sameNonce = (html: string) => html.replace(/nonce(-|=&#34;)[\w-]+/g, "nonce$1N");

describe("compileImageParts", () => {
  it("is the image browser's document, taken apart: its styles and one element per layer in order", () => {
    const parts = compileImageParts(config, sizes);
    const page = compileImage(config, sizes);
    expect(parts.layers).toHaveLength(config.layers.length);
    expect(sameNonce(page.html)).toBe(
      sameNonce(
        `<!doctype html><html><head><meta charset="utf-8">` +
          `<meta http-equiv="Content-Security-Policy" content="${PAGE_POLICY}">` +
          `<script>window.__mrsReady=new Promise(r=>{let n=1;addEventListener("message",e=>{if(e.data==="mrs-html-ready"&&--n<=0)r()})})</script>` +
          `<style>${parts.fontCss}\n${parts.pageCss}</style></head><body>${parts.layers.join("\n")}</body></html>`,
      ),
    );
    expect(parts.pageCss).toContain("background:#123456");
    // Every layer is one element: the preview replaces a changed layer's element alone.
    for (const layer of parts.layers) expect(layer).toMatch(/^<(div|img|iframe) class="l"[^]*>$/);
    expect(parts.layers[1]).toContain("color:#ff0000");
    expect(parts.layers[1]).toContain("Hi &#60;b&#62;");
  });

  it("takes its files from the origins it is given, and from nowhere else", () => {
    const origin = "http://127.0.0.1:8787";
    const parts = compileImageParts(config, sizes, new Map(), {
      static: origin,
      asset: (url) => `blob:${origin}/file${url.replaceAll("/", "-")}`,
      assetSources: "blob:",
    });
    const all = [parts.fontCss, ...parts.layers].join("\n");
    expect(all).not.toMatch(/static\.local|assets\.local/);
    expect(parts.fontCss).toContain(`url(${origin}/render/fonts/poppins/700-latin.woff2)`);
    expect(parts.fontCss).toContain(`src:url(blob:${origin}/file-font-2026-11-27-u-f.woff2)`);
    expect(parts.layers[0]).toContain(`src="blob:${origin}/file-image-2026-11-27-u-a.png"`);
    // The html layer's libraries, fonts and policy name the same origin.
    expect(parts.layers[3]).toContain(`src=&#34;${origin}/render/lib/gsap.js&#34;`);
    expect(parts.layers[3]).toContain(`${origin}/render/fonts/inter/400-latin.woff2`);
    expect(parts.layers[3]).toContain(`font-src data: ${origin}`);
  });

  it("hands text with a range to the page's fitting script: drawn at the maximum, its range and box in attributes", () => {
    const fitted = v.parse(ImageConfigSchema, {
      width: 300,
      height: 200,
      defaults: { layer: { fontSize: 30 } },
      layers: [
        { type: "text", text: "Ann", width: 200, height: 60, minFontSize: 10, maxFontSize: 48 },
        { type: "text", text: "Bob", width: 200, minFontSize: 10, maxFontSize: 48, rotation: 5 },
        { type: "text", text: "Cy" },
      ],
    });
    const parts = compileImageParts(fitted);
    expect(parts.fitted).toBe(2);
    expect(parts.layers[0]).toMatch(
      /^<div class="l" data-fit-min="10" data-fit-max="48" data-fit-height="60" style="[^"]*font-size:48px/,
    );
    expect(parts.layers[1]).toMatch(
      /^<div class="l" data-fit-min="10" data-fit-max="48" style="[^"]*font-size:48px/,
    );
    expect(parts.layers[2]).toMatch(/^<div class="l" style="[^"]*font-size:30px/);
    // The page runs the contract's function on them once its fonts are in; a page without fitted text has no script.
    const page = compileImage(fitted).html;
    expect(page).toContain(
      `<script>window.__mrsFitted=(async()=>{document.body.offsetWidth;await document.fonts.ready;` +
        `${FIT_TEXT_FUNCTION}(document.querySelectorAll(${JSON.stringify(FIT_SELECTOR)}))})()</script></body>`,
    );
    expect(compileImage(config, sizes).html).not.toContain("__mrsFitted");
  });
});
