/**
 * The bundled font catalogue (`catalogFont: "Family"` or `"Family:weight"`): the families of
 * src/fonts/families.json, shipped from the @fontsource/* npm packages into static/render/fonts by
 * scripts/build-render-assets.mjs. Validation and the image compiler both read this list, so a font that
 * validates is a font the renderer has.
 */
import data from "./catalog-data.json";
import { catalogueOnline } from "./online";

export interface CatalogFamily {
  family: string;
  /** @fontsource package id, also the folder name under static/render/fonts. */
  id: string;
  weights: number[];
  subsets: string[];
  version: string;
}

export const CATALOG_FAMILIES: readonly CatalogFamily[] = data.families;
/** unicode-range of each shipped subset (the browser downloads only the subsets a text uses). */
export const CATALOG_SUBSETS: Readonly<Record<string, string>> = data.subsets;
/** Path of the font files inside the ASSETS folder (and on the page's static origin). */
export const CATALOG_FONT_PATH = "/render/fonts";

const byName = new Map(CATALOG_FAMILIES.map((f) => [f.family.toLowerCase(), f]));

/** A resolved catalogue font. */
export interface CatalogFont {
  entry: CatalogFamily;
  weight: number;
}

/** `Family` alone means 400, or the available weight closest to it. */
const defaultWeight = (weights: number[]) =>
  weights.reduce((best, w) => (Math.abs(w - 400) < Math.abs(best - 400) ? w : best), weights[0]!);

/**
 * Resolves `Family` / `Family:weight` (family names match case-insensitively). Returns the error message
 * listing what is available when the family or weight is not in the catalogue.
 */
export const resolveCatalogFont = (value: string): CatalogFont | { error: string } => {
  const match = /^(.*?)(?::(\d+))?$/.exec(value.trim())!;
  const entry = byName.get(match[1]!.trim().toLowerCase());
  if (!entry)
    return {
      error: `unknown catalogue font family "${match[1]}"; available families: ${CATALOG_FAMILIES.map((f) => f.family).join(", ")}`,
    };
  if (match[2] === undefined) return { entry, weight: defaultWeight(entry.weights) };
  const weight = Number(match[2]);
  if (!entry.weights.includes(weight))
    return {
      error: `"${entry.family}" has no weight ${weight}; available weights: ${entry.weights.join(", ")}`,
    };
  return { entry, weight };
};

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

/** CSS family name used on the page: never a local() system font of the same name. */
export const catalogFaceName = (font: CatalogFont) => `cf-${font.entry.id}`;

/** `@font-face` rules (one per subset) for a catalogue font, served from `origin`. */
export const catalogFontFaces = (font: CatalogFont, origin: string, name = catalogFaceName(font)): string =>
  font.entry.subsets
    .map(
      (subset) =>
        `@font-face{font-family:"${name}";font-style:normal;font-weight:${font.weight};font-display:block;` +
        `src:url(${origin}${CATALOG_FONT_PATH}/${font.entry.id}/${font.weight}-${subset}.woff2) format("woff2");` +
        `unicode-range:${CATALOG_SUBSETS[subset] ?? "U+0-10FFFF"}}`,
    )
    .join("\n");

/**
 * `@font-face` rules of every weight of the catalogue family an html layer's `googleFonts` entry names
 * (`"Roboto"` or `"Roboto:wght@400;700"`), under its real family name; "" when the catalogue lacks it.
 */
export const pageFontFaces = (spec: string, origin: string): string => {
  const resolved = resolveCatalogFont(spec.split(":")[0]!.trim());
  if ("error" in resolved) return "";
  return resolved.entry.weights
    .map((weight) => catalogFontFaces({ entry: resolved.entry, weight }, origin, resolved.entry.family))
    .join("\n");
};
