/**
 * File names we hand back to a user's file system (download Content-Disposition, ZIP entries) must show what they
 * are. A right-to-left override turns "invoice\u202Egnp.exe" into what reads as "invoiceexe.png"; other invisible
 * format characters hide or reorder parts of a name the same way, and controls break terminals and headers.
 */

/**
 * Format characters (Unicode category Cf) that stay: zero-width non-joiner and joiner shape Persian and Indic text
 * and join emoji sequences (👩‍💻). Neither reorders or hides text.
 */
const KEPT_FORMAT = /^[\u200C\u200D]$/u;

/**
 * The subdivision flags Unicode recommends (England, Scotland, Wales): a black flag, the region spelled in tag
 * characters, a cancel tag. The only tag sequences an emoji font draws; any other tag character is invisible text
 * (a name can carry a whole hidden sentence in them), so it goes.
 */
const RECOMMENDED_FLAG =
  /\u{1F3F4}\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073})\u{E007F}/u;

/** A recommended flag (kept whole), or one character to judge: any of the tag block U+E0000-E007F, or any Cf. */
const INVISIBLE = new RegExp(`(${RECOMMENDED_FLAG.source})|[\\u{E0000}-\\u{E007F}]|\\p{Cf}`, "gu");

/**
 * `name` with each run of control characters (C0, DEL, C1) replaced by one `_` and every invisible format character
 * removed: the bidirectional embeddings, overrides and isolates (U+202A-202E, U+2066-2069), the directional marks
 * (U+200E, U+200F, U+061C), zero-width spaces and the BOM among them, and the tag characters (U+E0000-E007F) but
 * for the three recommended subdivision flags. Everything else is kept as it was.
 */
export const visibleFileName = (name: string): string =>
  name
    .replace(/\p{Cc}+/gu, "_")
    .replace(INVISIBLE, (c, flag?: string) => (flag || KEPT_FORMAT.test(c) ? c : ""));
