/**
 * Catalogue fonts in the renderer: the same @fontsource files the image renderer serves, read from the
 * renderer's own dependencies (renderer/package.json), so video text and html pages draw catalogue
 * families offline.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import {
  catalogFaceName,
  catalogFontFaces,
  CATALOG_FAMILIES,
  resolveCatalogFont,
  type CatalogFont,
} from "@media-render/contract/fonts/catalog";

const require = createRequire(import.meta.url);

/** Local path of one subset file of a catalogue font. */
export const catalogFontFile = (font: CatalogFont, subset: string): string => {
  const { id } = font.entry;
  return require.resolve(`@fontsource/${id}/files/${id}-${subset}-${font.weight}-normal.woff2`);
};

/**
 * The @font-face rules (file: URLs), the files they name and the CSS family/weight of a `googleFont` value;
 * throws when unknown.
 */
export const catalogFaceFile = (
  value: string,
): {
  family: string;
  weight: number;
  css: string;
  files: string[];
} => {
  const font = resolveCatalogFont(value);
  if ("error" in font)
    throw new Error(`googleFont "${value}" is not in the renderer's catalogue: ${font.error}`);
  const files: string[] = [];
  const css = catalogFontFaces(font, (subset) => {
    const file = catalogFontFile(font, subset);
    files.push(file);
    return pathToFileURL(file).href;
  });
  return { family: catalogFaceName(font), weight: font.weight, css, files };
};

/** The file behind a page font URL `<id>/<weight>-<subset>.woff2`, or null when it is not in the catalogue. */
export const catalogFontFileById = (id: string, weight: number, subset: string): string | null => {
  const entry = CATALOG_FAMILIES.find((f) => f.id === id);
  if (!entry || !entry.weights.includes(weight) || !entry.subsets.includes(subset)) return null;
  return catalogFontFile({ entry, weight }, subset);
};
