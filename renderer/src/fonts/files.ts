/**
 * Catalogue fonts in the renderer: the same @fontsource files the image renderer serves, read from the
 * renderer's own dependencies (renderer/package.json), so video text and html pages draw catalogue
 * families offline; and a job's fonts of the hosted catalogue (hosted.ts), downloaded with its inputs.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { isBundledFont } from "@media-render/contract/fonts/hosted";
import {
  catalogFaceName,
  catalogFontFaces,
  CATALOG_FAMILIES,
  resolveCatalogFont,
  type CatalogFont,
} from "@media-render/contract/fonts/catalog";

import type { JobFonts } from "./hosted.ts";

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
const catalogFaceFile = (value: string): FaceFiles => {
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

/** What the text page needs to draw a `googleFont`: its @font-face rules (file: URLs), their files, its CSS family. */
export interface FaceFiles {
  family: string;
  weight: number;
  css: string;
  files: string[];
}

/**
 * The faces of a `googleFont` value: the bundle's (bundled first, as in image jobs), else the job's hosted font of
 * that value (`fonts`: the spec's, files downloaded). Throws when neither has it (the route refuses such a request).
 */
export const fontFaceFiles = (value: string, fonts: JobFonts = {}): FaceFiles => {
  if (isBundledFont(value)) return catalogFaceFile(value);
  const font = Object.hasOwn(fonts, value) ? fonts[value] : undefined;
  if (!font)
    throw new Error(`googleFont "${value}" is not a bundled font and the request carries no faces for it`);
  // The value's form is the grammar's (letters, digits, spaces, + and -): a CSS name of its own, never a local() font.
  const family = `hf-${value.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  const css = font.faces
    .map(
      (face) =>
        `@font-face{font-family:"${family}";font-style:normal;font-weight:${font.weight};font-display:block;` +
        `src:url("${pathToFileURL(face.path).href}") format("woff2")` +
        (face.unicodeRange === undefined ? "}" : `;unicode-range:${face.unicodeRange}}`),
    )
    .join("\n");
  return { family, weight: font.weight, css, files: font.faces.map((f) => f.path) };
};

/** The file behind a page font URL `<id>/<weight>-<subset>.woff2`, or null when it is not in the catalogue. */
export const catalogFontFileById = (id: string, weight: number, subset: string): string | null => {
  const entry = CATALOG_FAMILIES.find((f) => f.id === id);
  if (!entry || !entry.weights.includes(weight) || !entry.subsets.includes(subset)) return null;
  return catalogFontFile({ entry, weight }, subset);
};
