/**
 * The document of one video html layer (pure, packages/contract/src/html-sandbox.ts shared with image jobs): the page
 * policy (no network: nothing but inline code and our own library origin), the prelude, the virtual clock, then
 * the libraries, fonts and the layer's `css`. Served from memory at `${HTML_ORIGIN}/` with a `sandbox` policy
 * header (opaque origin: no storage, no cookies).
 */
import { catalogFontFaces, pageFamily } from "@media-render/contract/fonts/catalog";
import type { LayerOf } from "../types.ts";
import { clockShim } from "./clock-shim.ts";
import { sandboxDocument, sandboxPolicy } from "@media-render/contract/html-sandbox";

/** A made-up origin: the capture page intercepts every request and answers this one from memory. */
export const HTML_ORIGIN = "https://html-layer.local";

/** Content-Security-Policy of the page (also sent as a header, with `sandbox allow-scripts`). */
/** The page's header policy; each document's own (with its nonce, html-sandbox.ts) narrows it further. */
export const PAGE_POLICY = sandboxPolicy(HTML_ORIGIN);

/**
 * @font-face rules for the layer's `googleFonts` that the bundled catalogue has, under their real family
 * names, served by the capture page from `${HTML_ORIGIN}/fonts/` (others fall back, as in image jobs).
 */
export const pageFonts = (layer: LayerOf<"html">): string => {
  return (layer.googleFonts ?? [])
    .flatMap((spec) => pageFamily(spec) ?? [])
    .map((font) =>
      catalogFontFaces(
        font,
        (subset) => `${HTML_ORIGIN}/fonts/${font.entry.id}/${font.weight}-${subset}.woff2`,
        font.entry.family,
      ),
    )
    .join("\n");
};

/** The full document for `layer`; `epochMs` is the page's `Date.now()` at virtual time 0. */
export const htmlLayerDocument = (layer: LayerOf<"html">, epochMs: number): string => {
  return sandboxDocument(layer, {
    libraryUrl: (n) => `${HTML_ORIGIN}/lib/${n}.js`,
    origin: HTML_ORIGIN,
    scripts: [clockShim(epochMs)],
    fontFaces: pageFonts(layer),
  });
};
