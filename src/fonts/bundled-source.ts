/**
 * The bundled catalogue's faces: the @fontsource families of families.json, copied into static/
 * by scripts/build-render-assets.mjs and served to the page from the ASSETS binding (static.local). Works
 * offline and needs no I/O to answer, so the compiler also uses its synchronous core (@media-render/image-page/catalog-faces) directly.
 */
import { STATIC_ORIGIN } from "@media-render/image-page/page-origins";
import { catalogFaceName, resolveCatalogFont } from "@media-render/contract/fonts/catalog";
import { catalogFontFaces } from "@media-render/image-page/catalog-faces";
import type { FontFaces, FontRequest } from "@media-render/image-page/font-faces";

/** The bundled faces of `request`, or null when the bundle lacks the family or the weight. */
export const bundledFaces = (request: FontRequest): FontFaces | null => {
  const value = request.weight === undefined ? request.family : `${request.family}:${request.weight}`;
  const font = resolveCatalogFont(value);
  if ("error" in font) return null;
  return {
    name: catalogFaceName(font),
    weight: font.weight,
    css: catalogFontFaces(font, STATIC_ORIGIN),
    files: [],
  };
};
