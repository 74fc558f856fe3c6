/**
 * File names we hand back to a user's file system (download Content-Disposition, ZIP entries) must show what they
 * are. A right-to-left override turns "invoice\u202Egnp.exe" into what reads as "invoiceexe.png"; other invisible
 * format characters hide or reorder parts of a name the same way, and controls break terminals and headers.
 */

/**
 * Format characters (Unicode category Cf) that stay: zero-width non-joiner and joiner shape Persian and Indic text
 * and join emoji sequences (👩‍💻), and tag characters spell emoji subdivision flags. None reorders or hides text.
 */
const KEPT_FORMAT = /^(?:\u200C|\u200D|[\u{E0020}-\u{E007F}])$/u;

/**
 * `name` with each run of control characters (C0, DEL, C1) replaced by one `_` and every invisible format character
 * removed: the bidirectional embeddings, overrides and isolates (U+202A-202E, U+2066-2069), the directional marks
 * (U+200E, U+200F, U+061C), zero-width spaces and the BOM among them. Everything else is kept as it was.
 */
export const visibleFileName = (name: string): string =>
  name.replace(/\p{Cc}+/gu, "_").replace(/\p{Cf}/gu, (c) => (KEPT_FORMAT.test(c) ? c : ""));
