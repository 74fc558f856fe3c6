/**
 * The html-layer libraries (config reference §4), served from local copies of the npm packages
 * (static/render/lib, see scripts/build-render-assets.mjs), never from a CDN. The list itself is shared
 * with the video renderer: packages/contract/src/html-libraries.ts.
 */
import { STATIC_ORIGIN } from "../page-origins.ts";

export const LIBRARY_PATH = "/render/lib";

/** A library's browser build on the static origin (the image browser's, or the builder preview's). */
export const libraryUrl = (name: string, origin = STATIC_ORIGIN) => `${origin}${LIBRARY_PATH}/${name}.js`;
