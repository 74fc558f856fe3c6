/**
 * The Worker's side of the bundled font catalogue (the list itself, shared with the video renderer, is
 * packages/contract/src/fonts/catalog.ts): validation of `googleFont` values and the @font-face rules the
 * image page loads from the static origin. A font that validates offline is a font both renderers have.
 */
import {
  catalogFaceName,
  catalogFontFaces as facesWithUrls,
  pageFamily,
  type CatalogFont,
} from "@media-render/contract/fonts/catalog";

/** Path of the font files inside the ASSETS folder (and on the page's static origin). */
export const CATALOG_FONT_PATH = "/render/fonts";

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
