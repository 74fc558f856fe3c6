/**
 * The bundled font catalogue (`googleFont: "Family"` or `"Family:weight"`, alias `catalogFont`), one list for image jobs (the
 * Worker bundles this file) and video jobs (the renderer): the families of families.json, taken
 * from the @fontsource/* npm packages. scripts/build-render-assets.mjs writes catalog-data.json (families,
 * weights, subsets and their unicode ranges) and copies the files into the Worker's static/ folder; the
 * renderer reads the same files from its own dependencies.
 */
import data from "./catalog-data.json" with { type: "json" };

export interface CatalogFamily {
  family: string;
  /** @fontsource package id, also the folder name under static/render/fonts. */
  id: string;
  weights: number[];
  subsets: string[];
  version: string;
}

export const CATALOG_FAMILIES: readonly CatalogFamily[] = data.families;
/** unicode-range of each shipped subset (the browser loads only the subsets a text uses). */
export const CATALOG_SUBSETS: Readonly<Record<string, string>> = data.subsets;

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
 * The validation message for a `googleFont` value, or null when it may be used. With `online` false only
 * the bundled catalogue counts. Online (the hosted catalogue is on), a value the bundle lacks passes here (its
 * syntax is checked by the schema) and the Worker asks the hosted catalogue when the job renders (image) or is handed
 * to a renderer (video), failing the job with a clear message when that lacks it too: validation stays synchronous
 * and free of network calls.
 */
export const catalogFontIssue = (value: string, online: boolean): string | null => {
  const resolved = resolveCatalogFont(value);
  return "error" in resolved && !online ? resolved.error : null;
};

/** CSS family name used on a page: never a local() system font of the same name. */
export const catalogFaceName = (font: CatalogFont) => `cf-${font.entry.id}`;

/**
 * `@font-face` rules (one per subset, with its unicode-range) for a catalogue font; `url` gives each
 * subset file's URL (an origin of the image page, a file: or data: URL in the renderer).
 */
export const catalogFontFaces = (
  font: CatalogFont,
  url: (subset: string) => string,
  name = catalogFaceName(font),
): string =>
  font.entry.subsets
    .map(
      (subset) =>
        `@font-face{font-family:"${name}";font-style:normal;font-weight:${font.weight};font-display:block;` +
        `src:url(${url(subset)}) format("woff2");unicode-range:${CATALOG_SUBSETS[subset] ?? "U+0-10FFFF"}}`,
    )
    .join("\n");

/**
 * The catalogue family an html layer's `googleFonts` entry names (`"Roboto"` or `"Roboto:wght@400;700"`)
 * with every weight it has, or null when the catalogue lacks it.
 */
export const pageFamily = (spec: string): CatalogFont[] | null => {
  const resolved = resolveCatalogFont(spec.split(":")[0]!.trim());
  if ("error" in resolved) return null;
  return resolved.entry.weights.map((weight) => ({ entry: resolved.entry, weight }));
};
