/**
 * The Worker's side of the bundled font catalogue (the list itself, shared with the video renderer, is
 * container/src/fonts/catalog.ts): validation of `catalogFont` values and the @font-face rules the
 * image page loads from the static origin. A font that validates offline is a font both renderers have.
 */
import {
  catalogFaceName,
  catalogFontFaces as facesWithUrls,
  pageFamily,
  resolveCatalogFont,
  type CatalogFont,
} from "../../container/src/fonts/catalog";
import { catalogueOnline } from "./online";

export { CATALOG_FAMILIES, catalogFaceName, resolveCatalogFont } from "../../container/src/fonts/catalog";
export type { CatalogFont } from "../../container/src/fonts/catalog";

/** Path of the font files inside the ASSETS folder (and on the page's static origin). */
export const CATALOG_FONT_PATH = "/render/fonts";

/**
 * The validation message for a `catalogFont` value, or null when it may be used. Offline, only the bundled
 * catalogue counts. Online, a value the bundle lacks passes here (its syntax is checked by the schema) and
 * the renderer asks the hosted catalogue, failing the job with a clear message when that lacks it too:
 * validation stays synchronous and free of network calls (see src/render/image/README.md).
 */
export const catalogFontIssue = (value: string, online = catalogueOnline()): string | null => {
  const resolved = resolveCatalogFont(value);
  return "error" in resolved && !online ? resolved.error : null;
};

/** `@font-face` rules (one per subset) for a catalogue font, served from `origin`. */
export const catalogFontFaces = (font: CatalogFont, origin: string, name = catalogFaceName(font)): string =>
  facesWithUrls(
    font,
    (subset) => `${origin}${CATALOG_FONT_PATH}/${font.entry.id}/${font.weight}-${subset}.woff2`,
    name,
  );

/**
 * `@font-face` rules of every weight of the catalogue family an html layer's `googleFonts` entry names
 * (`"Roboto"` or `"Roboto:wght@400;700"`), under its real family name; "" when the catalogue lacks it.
 */
export const pageFontFaces = (spec: string, origin: string): string =>
  (pageFamily(spec) ?? []).map((font) => catalogFontFaces(font, origin, font.entry.family)).join("\n");
