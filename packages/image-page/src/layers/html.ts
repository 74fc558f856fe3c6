/**
 * `html` layers (config reference §4, image-job placement §1.6): the markup renders in a sandboxed iframe
 * (`allow-scripts` only: an opaque origin, so no storage, cookies or access to the rest of the image),
 * sized `width` x `height` (default: the canvas), placed like any layer. Its background stays transparent
 * unless the page paints one. The document (packages/contract/src/html-sandbox.ts, shared with video) inherits the image
 * page's Content-Security-Policy: no fetch, XHR, WebSocket, workers or external scripts; a prelude removes WebRTC
 * and WebGL. When the page has loaded and its fonts are ready it tells the image page, which then waits `wait`
 * seconds before the capture.
 */
import { placement, type Placeable } from "../placement.ts";
import { css, effects, esc } from "../style.ts";
import { sandboxDocument } from "@media-render/contract/html-sandbox";
import { STATIC_ORIGIN } from "../page-origins.ts";
import { libraryUrl } from "./libraries.ts";

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

/** Tells the image page the layer has loaded and its fonts are ready (it then waits `wait` seconds). */
const READY_SIGNAL = `addEventListener("load",()=>document.fonts.ready.then(()=>requestAnimationFrame(()=>parent.postMessage("mrs-html-ready","*"))));`;

/**
 * The iframe document of an html layer. `fontFaces` are the @font-face rules for its `googleFonts`; `origin`
 * serves the libraries and fonts.
 */
export const htmlLayerDocument = (layer: HtmlLayerInput, fontFaces = "", origin = STATIC_ORIGIN): string =>
  sandboxDocument(layer, {
    libraryUrl: (name) => libraryUrl(name, origin),
    origin,
    scripts: [READY_SIGNAL],
    fontFaces,
  });

export const htmlLayerHtml = (
  layer: HtmlLayerInput,
  canvas: { width: number; height: number },
  fontFaces = "",
  origin = STATIC_ORIGIN,
): string => {
  const style = css({
    ...placement(layer, canvas),
    width: layer.width ?? canvas.width,
    height: layer.height ?? canvas.height,
    border: "0",
    background: "transparent",
    ...effects(layer),
  });
  return `<iframe class="l" sandbox="allow-scripts" scrolling="no" style="${esc(style)}" srcdoc="${esc(htmlLayerDocument(layer, fontFaces, origin))}"></iframe>`;
};
