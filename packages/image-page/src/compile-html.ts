/**
 * Compiles an image config into one HTML/CSS document: absolutely positioned layers in array order
 * (index 0 at the bottom), drawn by Chromium and screenshotted at the canvas size. Pure and free of Worker
 * APIs: the same function serves the Worker's image jobs and the builder's preview in the browser
 * (web/src/builder/preview), which draws `compileImageParts` with its own origins (`PageOrigins`).
 */
import { applyLayerDefaults, type ImageConfig, type ImageLayer } from "@media-render/contract/config";
import { FIT_ATTRIBUTES, FIT_SELECTOR, FIT_TEXT_FUNCTION } from "@media-render/contract/fit-text";
import { pageFontFaces } from "./catalog-faces.ts";
import type { HostedFonts } from "./font-faces.ts";
import { FontRegistry } from "./fonts.ts";
import { htmlLayerHtml, type HtmlLayerInput } from "./layers/html.ts";
import { imageLayerHtml, type ImageLayerInput } from "./layers/image.ts";
import {
  gradientLayerHtml,
  shapeLayerHtml,
  type GradientLayerInput,
  type ShapeLayerInput,
} from "./layers/shapes.ts";
import { textLayerHtml, type TextLayerInput } from "./layers/text.ts";
import { RENDER_ORIGINS, type PageOrigins } from "./page-origins.ts";

/** Natural pixel sizes of the job's pictures, by storage URL (from media_files). */
export type NaturalSizes = ReadonlyMap<string, { width: number; height: number }>;

/** What the document is made of: its stylesheets and one element per layer, in the config's order. */
export interface CompiledParts {
  /** `@font-face` rules of the fonts the layers use. */
  fontCss: string;
  /** The page box (canvas size, background) and the layers' shared rule. */
  pageCss: string;
  /** One top-level element per layer, index i drawing `layers[i]`. */
  layers: string[];
  /** Longest `wait` of the html layers, in seconds. */
  waitSeconds: number;
  /** Number of html layers whose readiness the page waits for. */
  htmlLayers: number;
  /** An html layer runs the user's scripts (enableLibraries): the page is not reused after it. */
  scripted: boolean;
  /**
   * Text layers fitted into their box (minFontSize/maxFontSize, layers/text.ts marks them): the page sizes them once
   * its fonts are in. (Every other attribute value on the page is escaped, so the mark is only ever one of theirs.)
   */
  fitted: number;
}

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
export const pagePolicy = (origins: PageOrigins): string =>
  [
    "default-src 'none'",
    `script-src 'unsafe-inline' 'unsafe-eval' ${origins.static}`,
    `style-src 'unsafe-inline' ${origins.static}`,
    `img-src ${origins.assetSources} data: blob:`,
    `media-src ${origins.assetSources} data: blob:`,
    `font-src ${origins.assetSources} ${origins.static} data:`,
    "connect-src 'none'",
    "worker-src 'none'",
  ].join(";");

/** The policy of the service's renders. */
export const PAGE_POLICY = pagePolicy(RENDER_ORIGINS);

/**
 * Fits the text layers that carry a range (packages/contract/src/fit-text.ts) once the fonts their text needs are in
 * (laying the page out first starts those loads); the browser awaits `window.__mrsFitted` before the capture. The
 * builder's preview runs the same function on the same elements (web/src/builder/preview/main.ts).
 */
const fitScript = () =>
  `<script>window.__mrsFitted=(async()=>{document.body.offsetWidth;await document.fonts.ready;` +
  `${FIT_TEXT_FUNCTION}(document.querySelectorAll(${JSON.stringify(FIT_SELECTOR)}))})()</script>`;

/** Collects `mrs-html-ready` messages of the html layers; the browser awaits `window.__mrsReady`. */
const readyScript = (count: number) =>
  `<script>window.__mrsReady=new Promise(r=>{let n=${count};addEventListener("message",e=>{if(e.data==="mrs-html-ready"&&--n<=0)r()})})</script>`;

type Canvas = { width: number; height: number };

/** What a layer's element is made with: the canvas, the page's fonts, the pictures' natural sizes, the origins. */
interface Page {
  canvas: Canvas;
  fonts: FontRegistry;
  sizes: NaturalSizes;
  origins: PageOrigins;
}

/**
 * The element of each layer type (one module per family, layers/), keyed by `type` like the contract's
 * image-layer-types.ts and complete by type: a type of the grammar without an entry fails the typecheck.
 */
export const LAYER_HTML: {
  readonly [T in ImageLayer["type"]]: (layer: Extract<ImageLayer, { type: T }>, page: Page) => string;
} = {
  image: (layer, page) =>
    imageLayerHtml(layer as ImageLayerInput, page.canvas, page.sizes.get(layer.path), page.origins.asset),
  text: (layer, page) => textLayerHtml(layer as TextLayerInput, page.canvas, page.fonts),
  rectangle: (layer, page) => shapeLayerHtml(layer as ShapeLayerInput, page.canvas),
  circle: (layer, page) => shapeLayerHtml(layer as ShapeLayerInput, page.canvas),
  gradient: (layer, page) => gradientLayerHtml(layer as GradientLayerInput, page.canvas),
  html: (layer, page) => {
    const faces = (layer.googleFonts ?? []).map((f) => pageFontFaces(f, page.origins.static)).join("\n");
    return htmlLayerHtml(layer as HtmlLayerInput, page.canvas, faces, page.origins.static);
  },
};

/**
 * The element of `layer`, by its type's entry. LAYER_HTML pairs each type with the function of that type; TypeScript
 * cannot follow the pairing through an index by a union, hence the widening.
 */
const layerHtml = (layer: ImageLayer, page: Page): string => {
  const draw = Object.hasOwn(LAYER_HTML, layer.type)
    ? (LAYER_HTML[layer.type] as (layer: ImageLayer, page: Page) => string)
    : undefined;
  return draw ? draw(layer, page) : "";
};

/**
 * The parts of the document for `config`, with `defaults.layer` / `defaults.layerType` merged into every layer.
 * `hosted`: faces of catalogue fonts the bundle lacks (loadHostedFonts), when the hosted catalogue is on.
 */
export const compileImageParts = (
  config: ImageConfig,
  sizes: NaturalSizes = new Map(),
  hosted: HostedFonts = new Map(),
  origins: PageOrigins = RENDER_ORIGINS,
): CompiledParts => {
  const canvas = { width: config.width, height: config.height };
  const fonts = new FontRegistry(hosted, origins);
  const merged = config.layers.map((l) => applyLayerDefaults(config.defaults, l));
  const layers = merged.map((l) => layerHtml(l, { canvas, fonts, sizes, origins }));
  const html = merged.filter((l) => l.type === "html") as HtmlLayerInput[];
  const background = config.backgroundColor ?? config.background ?? "transparent";
  return {
    fontCss: fonts.css(),
    pageCss:
      `html,body{margin:0;padding:0;width:${canvas.width}px;height:${canvas.height}px;overflow:hidden;background:${background}}` +
      `.l{position:absolute;box-sizing:border-box;margin:0;transform-origin:50% 50%}`,
    layers,
    waitSeconds: Math.max(0, ...html.map((l) => l.wait ?? 0)),
    htmlLayers: html.length,
    scripted: html.some((l) => l.enableLibraries === true),
    fitted: layers.filter((l) => l.includes(` ${FIT_ATTRIBUTES.max}="`)).length,
  };
};

/** The document for `config` (see compileImageParts), as the image browser loads it. */
export const compileImage = (
  config: ImageConfig,
  sizes: NaturalSizes = new Map(),
  hosted: HostedFonts = new Map(),
): CompiledImage => {
  const { fontCss, pageCss, layers, waitSeconds, htmlLayers, scripted, fitted } = compileImageParts(
    config,
    sizes,
    hosted,
  );
  const html =
    `<!doctype html><html><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${PAGE_POLICY}">` +
    (htmlLayers ? readyScript(htmlLayers) : "") +
    `<style>${fontCss}\n${pageCss}</style></head><body>${layers.join("\n")}` +
    (fitted ? fitScript() : "") +
    `</body></html>`;
  return { html, waitSeconds, htmlLayers, scripted };
};
