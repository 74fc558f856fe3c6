/**
 * Where catalogue fonts (`googleFont: "Family"` / `"Family:weight"`) come from. Two sources implement
 * FontSource: the bundled catalogue (bundled-source.ts, files in static/ served through the ASSETS
 * binding, always on) and the hosted catalogue (hosted-source.ts, fetched once and cached in R2, on when
 * FONT_CATALOGUE_ONLINE is "true"). The image renderer asks the bundled one first.
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

export interface FontSource {
  /** The faces of `request`, or null when this source does not have that family (or weight). */
  faces(request: FontRequest): Promise<FontFaces | null>;
}

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

/** Lower-case, dash-separated family name, safe in R2 keys and CSS names (`Comic Neue` -> `comic-neue`). */
export const familySlug = (family: string): string =>
  family
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** A job's message when the hosted catalogue lacks the font `value` (the family, or that weight of it) of `field`. */
export const noSuchFont = (field: string, value: string): string =>
  `${field}: the hosted font catalogue has no "${value}" (check the family's spelling and casing, and its weights)`;
