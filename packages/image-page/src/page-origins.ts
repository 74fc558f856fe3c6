/**
 * Origins the image page loads from. Neither exists on the network: the image browser intercepts every
 * request and answers these two from storage (the job's own R2 keys) and from the ASSETS folder
 * (catalogue fonts, html-layer libraries); anything else is refused.
 * The builder's preview compiles the same page in a browser, where these are real URLs (`PageOrigins`).
 * A stored file's R2 key (`keyOf`) is defined here, where the page first needs it; src/storage/paths.ts passes it on.
 */

/** A file's R2 key: its storage URL (`/<category>/<date>/<user>/<id>.<ext>`) without the leading slash. */
export const keyOf = (storageUrl: string): string => storageUrl.replace(/^\/+/, "");

/** `https://assets.local/<r2 key>`: the job's input files. */
export const ASSET_ORIGIN = "https://assets.local";
/** `https://static.local/render/...`: files of the ASSETS binding (static/ in the repository). */
export const STATIC_ORIGIN = "https://static.local";

/** URL under which the image browser serves a stored file (`/image/...` storage URL) to the page. */
export const assetUrl = (storageUrl: string) =>
  `${ASSET_ORIGIN}/${encodeURIComponent(keyOf(storageUrl)).replaceAll("%2F", "/")}`;

/** Where a compiled page takes its files from. */
export interface PageOrigins {
  /** The origin serving `/render/fonts/...` and `/render/lib/...` (a bare origin: it goes into policies). */
  static: string;
  /** The URL of a stored file (a config's storage URL) on the page. */
  asset: (storageUrl: string) => string;
  /** Policy sources that admit `asset` URLs. */
  assetSources: string;
}

/** The image browser's intercepted origins (the service's renders). */
export const RENDER_ORIGINS: PageOrigins = {
  static: STATIC_ORIGIN,
  asset: assetUrl,
  assetSources: ASSET_ORIGIN,
};
