/**
 * Headers that keep a served file inert on the API's origin: a user's SVG or HTML is never rendered as a page
 * here (no script, no same-origin access), only downloaded. Every route that answers stored bytes sends them
 * (files' downloads, signed storage URLs).
 */
export const INERT_FILE_HEADERS = {
  "content-security-policy": "default-src 'none'; sandbox",
  "x-content-type-options": "nosniff",
} as const;
