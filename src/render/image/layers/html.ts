/**
 * `html` layers (config reference §4, image-job placement §1.6): the markup renders in a sandboxed iframe
 * (`allow-scripts` only: an opaque origin, so no storage, cookies or access to the rest of the image),
 * sized `width` x `height` (default: the canvas), placed like any layer. Its background stays transparent
 * unless the page paints one. The document inherits the image page's Content-Security-Policy: no fetch,
 * XHR, WebSocket, workers or external scripts; a prelude removes WebRTC and WebGL. When the page has loaded
 * and its fonts are ready it tells the image page, which then waits `wait` seconds before the capture.
 */
import { placement, type Placeable } from "../placement";
import { css, effects, esc } from "../style";
import { libraryScripts, stripLibraryImports } from "./libraries";

export interface HtmlLayerInput extends Placeable {
  html?: string;
  src?: string;
  css?: string;
  tailwindcss?: boolean;
  enableLibraries?: boolean;
  googleFonts?: string[];
  wait?: number;
  width?: number;
  height?: number;
  opacity?: number;
  blur?: number;
}

/** Runs first in every html layer. */
const PRELUDE = `<script>(()=>{for(const k of ["RTCPeerConnection","webkitRTCPeerConnection","RTCDataChannel"])try{delete window[k];window[k]=undefined}catch{}
const g=HTMLCanvasElement.prototype.getContext;HTMLCanvasElement.prototype.getContext=function(t,...a){return /webgl|webgpu/i.test(String(t))?null:g.call(this,t,...a)};
addEventListener("load",()=>document.fonts.ready.then(()=>requestAnimationFrame(()=>parent.postMessage("mrs-html-ready","*"))));})()</script>`;

/** Inserts `head` into the user's markup after `<head>`, `<html>` or the doctype (keeps standards mode). */
export const injectHead = (html: string, head: string): string => {
  for (const re of [/<head\b[^>]*>/i, /<html\b[^>]*>/i, /<!doctype[^>]*>/i]) {
    const m = re.exec(html);
    if (m) return html.slice(0, m.index + m[0].length) + head + html.slice(m.index + m[0].length);
  }
  return head + html;
};

/** The iframe document of an html layer. `fontFaces` are the @font-face rules for its `googleFonts`. */
export const htmlLayerDocument = (layer: HtmlLayerInput, fontFaces = ""): string => {
  const markup = stripLibraryImports(layer.html ?? "", layer);
  const head =
    `<meta charset="utf-8">${PRELUDE}${libraryScripts(layer)}` +
    (fontFaces ? `<style>${fontFaces}</style>` : "") +
    (layer.css ? `<style>${layer.css.replace(/<\/style/gi, "<\\/style")}</style>` : "");
  const doc = injectHead(markup, head);
  return /^\s*<!doctype/i.test(doc) ? doc : `<!doctype html>${doc}`;
};

export const htmlLayerHtml = (
  layer: HtmlLayerInput,
  canvas: { width: number; height: number },
  fontFaces = "",
): string => {
  const style = css({
    ...placement(layer, canvas),
    width: layer.width ?? canvas.width,
    height: layer.height ?? canvas.height,
    border: "0",
    background: "transparent",
    ...effects(layer),
  });
  return `<iframe class="l" sandbox="allow-scripts" scrolling="no" style="${esc(style)}" srcdoc="${esc(htmlLayerDocument(layer, fontFaces))}"></iframe>`;
};
