/**
 * Where catalogue fonts (`googleFont: "Family"` / `"Family:weight"`) come from. Two sources implement
 * FontSource: the bundled catalogue (bundled-source.ts, files in static/ served through the ASSETS
 * binding, always on) and the hosted catalogue (hosted-source.ts, fetched once and cached in R2, on when
 * FONT_CATALOGUE_ONLINE is "true"). The image renderer asks the bundled one first. What they answer with
 * (`FontFaces`) and how a `googleFont` value is parsed and keyed belong to the page: @media-render/image-page.
 */

import type { FontFaces, FontRequest } from "@media-render/image-page/font-faces";

export interface FontSource {
  /** The faces of `request`, or null when this source does not have that family (or weight). */
  faces(request: FontRequest): Promise<FontFaces | null>;
}

/** Lower-case, dash-separated family name, safe in R2 keys and CSS names (`Comic Neue` -> `comic-neue`). */
export const familySlug = (family: string): string =>
  family
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** A job's message when the hosted catalogue lacks the font `value` (the family, or that weight of it) of `field`. */
export const noSuchFont = (field: string, value: string): string =>
  `${field}: the hosted font catalogue has no "${value}" (check the family's spelling and casing, and its weights)`;
