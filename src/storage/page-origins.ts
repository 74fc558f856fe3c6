/**
 * Origins the image page loads from. Neither exists on the network: the image browser intercepts every
 * request and answers these two from storage (the job's own R2 keys) and from the ASSETS folder
 * (catalogue fonts, html-layer libraries); anything else is refused.
 */
import { keyOf } from "./paths.ts";

/** `https://assets.local/<r2 key>`: the job's input files. */
export const ASSET_ORIGIN = "https://assets.local";
/** `https://static.local/render/...`: files of the ASSETS binding (static/ in the repository). */
export const STATIC_ORIGIN = "https://static.local";

/** URL under which the image browser serves a stored file (`/image/...` storage URL) to the page. */
export const assetUrl = (storageUrl: string) =>
  `${ASSET_ORIGIN}/${encodeURIComponent(keyOf(storageUrl)).replaceAll("%2F", "/")}`;
