/**
 * Fonts of the hosted catalogue (`FONT_CATALOGUE_ONLINE`): the `googleFont` values a config names and where, and
 * the bounds on what such fonts may bring, which the Worker (validation, its font cache, the render request) and
 * the renderer (the request's `fonts`, the text page's @font-face rules) hold alike.
 */
import { CATALOG_FONT_KEYS } from "../config/rules.ts";
import { resolveCatalogFont } from "./catalog.ts";

/** Most faces (unicode subsets) one family and weight may have: CJK families come in ~120. */
export const MAX_FONT_FACES = 256;

/**
 * Distinct fonts outside the bundle one video job may name: each is fetched (once), signed into the render request
 * and downloaded by every renderer of the job, so a handful is what a design needs and what the request carries.
 */
export const MAX_HOSTED_FONTS_PER_JOB = 4;

/**
 * A CSS `unicode-range` value as the catalogue writes it (`U+0000-00FF, U+0131, U+4??`): only these characters, so
 * one copied into an @font-face rule cannot carry anything else.
 */
export const UNICODE_RANGE_PATTERN =
  /^[Uu]\+[0-9A-Fa-f?]{1,6}(?:-[0-9A-Fa-f]{1,6})?(?:\s*,\s*[Uu]\+[0-9A-Fa-f?]{1,6}(?:-[0-9A-Fa-f]{1,6})?)*$/;

/** Whether the bundled catalogue has `value` (family and weight): it is drawn from the bundle, never fetched. */
export const isBundledFont = (value: string): boolean => !("error" in resolveCatalogFont(value));

/** A `googleFont` (or `catalogFont`) of a config: its path from the config's root, and its value. */
export interface FontField {
  path: (string | number)[];
  value: string;
}

/**
 * Every `googleFont` / `catalogFont` string of `config`, wherever it is (layers, global layers, defaults, the
 * caption style), in document order. Only a font field has those names in either grammar (html layers' page fonts
 * are `googleFonts`), so a walk finds exactly them, as written or in normal form.
 */
export const catalogFontFields = (config: unknown): FontField[] => {
  const out: FontField[] = [];
  const walk = (node: unknown, path: (string | number)[]) => {
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, [...path, i]));
    else if (node !== null && typeof node === "object")
      for (const [key, value] of Object.entries(node)) {
        if ((CATALOG_FONT_KEYS as readonly string[]).includes(key) && typeof value === "string")
          out.push({ path: [...path, key], value });
        else walk(value, [...path, key]);
      }
  };
  walk(config, []);
  return out;
};

/**
 * The distinct values of `fields` the bundle lacks (the hosted catalogue's to answer), each with the first field
 * that names it, in document order.
 */
export const hostedFontFields = (fields: readonly FontField[]): FontField[] => {
  const seen = new Set<string>();
  return fields.filter((font) => {
    if (isBundledFont(font.value) || seen.has(font.value)) return false;
    seen.add(font.value);
    return true;
  });
};
