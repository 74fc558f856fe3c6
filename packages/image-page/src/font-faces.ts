/**
 * What a page needs to draw a catalogue font (`googleFont: "Family"` / `"Family:weight"`): the parsed request, the
 * faces a font source answers with, and the key a page looks them up by. The Worker's font sources (src/fonts:
 * the bundled catalogue, the hosted one) answer with `FontFaces`; the page compiler draws them (fonts.ts).
 */

/** A parsed `googleFont` value. `weight` is undefined for `Family` alone (the source picks ~400). */
export interface FontRequest {
  family: string;
  weight?: number;
}

/** What a page needs to draw a catalogue font. */
export interface FontFaces {
  /** CSS `font-family` name used on the page. */
  name: string;
  weight: number;
  /** `@font-face` rules whose URLs are on the image page's origins (static.local, assets.local). */
  css: string;
  /**
   * The files behind the rules (hosted fonts; none for the bundle's): their R2 keys, which the image browser serves
   * only when allowed and a video's render request signs, and the characters each draws.
   */
  files: FontFile[];
}

/** One woff2 file of a font (a unicode subset) in R2. */
export interface FontFile {
  key: string;
  /** CSS unicode-range; absent: every character. */
  unicodeRange?: string;
}

/** Faces of the hosted catalogue's fonts a page uses, by `fontKey` of their `googleFont` value. */
export type HostedFonts = ReadonlyMap<string, FontFaces>;

/** `"Open Sans:700"` -> `{ family: "Open Sans", weight: 700 }` (the config schema has checked the syntax). */
export const parseFontRequest = (value: string): FontRequest => {
  const match = /^(.*?)(?::(\d+))?$/.exec(value.trim())!;
  const family = match[1]!.trim();
  return match[2] === undefined ? { family } : { family, weight: Number(match[2]) };
};

/** Case-insensitive identity of a `googleFont` value, for maps of resolved fonts. */
export const fontKey = (value: string): string => {
  const { family, weight } = parseFontRequest(value);
  return `${family.toLowerCase()}:${weight ?? ""}`;
};
