/**
 * The document of one video html layer (pure): the user's markup with, first in <head>, the page
 * policy (no network: nothing but inline code and our own library origin), a prelude that removes
 * WebRTC and WebGL, the virtual clock, then the libraries and the layer's `css`. Served from memory
 * at `${HTML_ORIGIN}/` with a `sandbox` policy header (opaque origin: no storage, no cookies).
 */
import { catalogFontFaces, pageFamily } from "../../fonts/catalog.ts";
import type { Layer } from "../types.ts";
import { clockShim } from "./clock-shim.ts";
import { libraryNames, stripLibraryImports } from "./libraries.ts";

/** A made-up origin: the capture page intercepts every request and answers this one from memory. */
export const HTML_ORIGIN = "https://html-layer.local";

/** Content-Security-Policy of the page (also sent as a header, with `sandbox allow-scripts`). */
export const PAGE_POLICY = [
  "default-src 'none'",
  `script-src 'unsafe-inline' 'unsafe-eval' ${HTML_ORIGIN}`,
  "style-src 'unsafe-inline'",
  "img-src data: blob:",
  "media-src data: blob:",
  `font-src data: ${HTML_ORIGIN}`,
  "connect-src 'none'",
  "worker-src 'none'",
  "frame-src 'none'",
].join(";");

const PRELUDE = `(()=>{for(const k of ["RTCPeerConnection","webkitRTCPeerConnection","RTCDataChannel"])try{delete window[k];window[k]=undefined}catch{}
const g=HTMLCanvasElement.prototype.getContext;HTMLCanvasElement.prototype.getContext=function(t,...a){return /webgl|webgpu/i.test(String(t))?null:g.call(this,t,...a)};})();`;

/** Inserts `head` after `<head>`, `<html>` or the doctype (keeps standards mode), else in front. */
export function injectHead(html: string, head: string): string {
  for (const re of [/<head\b[^>]*>/i, /<html\b[^>]*>/i, /<!doctype[^>]*>/i]) {
    const m = re.exec(html);
    if (m) return html.slice(0, m.index + m[0].length) + head + html.slice(m.index + m[0].length);
  }
  return head + html;
}

/**
 * @font-face rules for the layer's `googleFonts` that the bundled catalogue has, under their real family
 * names, served by the capture page from `${HTML_ORIGIN}/fonts/` (others fall back, as in image jobs).
 */
export function pageFonts(layer: Layer): string {
  const specs = Array.isArray(layer.googleFonts)
    ? layer.googleFonts.filter((s) => typeof s === "string")
    : [];
  return specs
    .flatMap((spec) => pageFamily(spec) ?? [])
    .map((font) =>
      catalogFontFaces(
        font,
        (subset) => `${HTML_ORIGIN}/fonts/${font.entry.id}/${font.weight}-${subset}.woff2`,
        font.entry.family,
      ),
    )
    .join("\n");
}

/** The full document for `layer`; `epochMs` is the page's `Date.now()` at virtual time 0. */
export function htmlLayerDocument(layer: Layer, epochMs: number): string {
  const markup = stripLibraryImports(typeof layer.html === "string" ? layer.html : "", layer);
  const libs = libraryNames(layer)
    .map((n) => `<script src="${HTML_ORIGIN}/lib/${n}.js"></script>`)
    .join("");
  const css =
    typeof layer.css === "string" ? `<style>${layer.css.replace(/<\/style/gi, "<\\/style")}</style>` : "";
  const fonts = pageFonts(layer);
  const head =
    `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${PAGE_POLICY}">` +
    `<script>${PRELUDE}</script><script>${clockShim(epochMs)}</script>${libs}` +
    `${fonts ? `<style>${fonts}</style>` : ""}${css}`;
  const doc = injectHead(markup, head);
  return /^\s*<!doctype/i.test(doc) ? doc : `<!doctype html>${doc}`;
}
