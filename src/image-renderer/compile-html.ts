/**
 * Compiles an image config into one HTML/CSS document: absolutely positioned layers in array order
 * (index 0 at the bottom), drawn by Chromium and screenshotted at the canvas size. Pure: the same
 * function serves the Worker's image jobs and can serve the renderer's video text/html frames.
 */
import { applyLayerDefaults, type ImageConfig, type ImageLayer } from "@media-render/contract/config";
import { pageFontFaces } from "../fonts/catalog.ts";
import { FontRegistry } from "./fonts.ts";
import type { HostedFonts } from "./hosted-fonts.ts";
import { htmlLayerHtml, type HtmlLayerInput } from "./layers/html.ts";
import { imageLayerHtml, type ImageLayerInput } from "./layers/image.ts";
import {
  gradientLayerHtml,
  shapeLayerHtml,
  type GradientLayerInput,
  type ShapeLayerInput,
} from "./layers/shapes.ts";
import { textLayerHtml, type TextLayerInput } from "./layers/text.ts";
import { ASSET_ORIGIN, STATIC_ORIGIN } from "../storage/page-origins.ts";

/** Natural pixel sizes of the job's pictures, by storage URL (from media_files). */
export type NaturalSizes = ReadonlyMap<string, { width: number; height: number }>;

export interface CompiledImage {
  html: string;
  /** Longest `wait` of the html layers, in seconds. */
  waitSeconds: number;
  /** Number of html layers whose readiness the page waits for. */
  htmlLayers: number;
  /** An html layer runs the user's scripts (enableLibraries): the page is not reused after it. */
  scripted: boolean;
}

/**
 * What the page may load. Inherited by the html layers' srcdoc frames, so it is also their sandbox:
 * scripts and styles inline or from the local library origin, pictures/fonts from the job's files and the
 * catalogue, and no connections at all (fetch, XHR, WebSocket, EventSource), no workers, no nested frames.
 */
export const PAGE_POLICY = [
  "default-src 'none'",
  `script-src 'unsafe-inline' 'unsafe-eval' ${STATIC_ORIGIN}`,
  `style-src 'unsafe-inline' ${STATIC_ORIGIN}`,
  `img-src ${ASSET_ORIGIN} data: blob:`,
  `media-src ${ASSET_ORIGIN} data: blob:`,
  `font-src ${ASSET_ORIGIN} ${STATIC_ORIGIN} data:`,
  "connect-src 'none'",
  "worker-src 'none'",
].join(";");

/** Collects `mrs-html-ready` messages of the html layers; the browser awaits `window.__mrsReady`. */
const readyScript = (count: number) =>
  `<script>window.__mrsReady=new Promise(r=>{let n=${count};addEventListener("message",e=>{if(e.data==="mrs-html-ready"&&--n<=0)r()})})</script>`;

type Canvas = { width: number; height: number };

const layerHtml = (layer: ImageLayer, canvas: Canvas, fonts: FontRegistry, sizes: NaturalSizes): string => {
  switch (layer.type) {
    case "image":
      return imageLayerHtml(layer as ImageLayerInput, canvas, sizes.get(layer.path));
    case "text":
      return textLayerHtml(layer as TextLayerInput, canvas, fonts);
    case "rectangle":
    case "circle":
      return shapeLayerHtml(layer as ShapeLayerInput, canvas);
    case "gradient":
      return gradientLayerHtml(layer as GradientLayerInput, canvas);
    case "html": {
      const faces = (layer.googleFonts ?? []).map((f) => pageFontFaces(f, STATIC_ORIGIN)).join("\n");
      return htmlLayerHtml(layer as HtmlLayerInput, canvas, faces);
    }
    default:
      return "";
  }
};

/**
 * The document for `config`, with `defaults.layer` / `defaults.layerType` merged into every layer.
 * `hosted`: faces of catalogue fonts the bundle lacks (loadHostedFonts), when the hosted catalogue is on.
 */
export const compileImage = (
  config: ImageConfig,
  sizes: NaturalSizes = new Map(),
  hosted: HostedFonts = new Map(),
): CompiledImage => {
  const canvas = { width: config.width, height: config.height };
  const fonts = new FontRegistry(hosted);
  const layers = config.layers.map((l) => applyLayerDefaults(config.defaults, l));
  const body = layers.map((l) => layerHtml(l, canvas, fonts, sizes)).join("\n");
  const html = layers.filter((l) => l.type === "html") as HtmlLayerInput[];
  const background = config.backgroundColor ?? config.background ?? "transparent";
  const doc =
    `<!doctype html><html><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${PAGE_POLICY}">` +
    (html.length ? readyScript(html.length) : "") +
    `<style>${fonts.css()}\nhtml,body{margin:0;padding:0;width:${canvas.width}px;height:${canvas.height}px;overflow:hidden;background:${background}}` +
    `.l{position:absolute;box-sizing:border-box;margin:0;transform-origin:50% 50%}</style></head><body>${body}</body></html>`;
  return {
    html: doc,
    waitSeconds: Math.max(0, ...html.map((l) => l.wait ?? 0)),
    htmlLayers: html.length,
    scripted: html.some((l) => l.enableLibraries === true),
  };
};
