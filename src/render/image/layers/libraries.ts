/**
 * The html-layer libraries (config reference §4), served from local copies of the npm packages
 * (static/render/lib, see scripts/build-render-assets.mjs), never from a CDN. The list itself is shared
 * with the video renderer: container/src/html-libraries.ts.
 */
import { libraryNames, stripLibraryImports } from "../../../../container/src/html-libraries";
import { STATIC_ORIGIN } from "../origins";

export const LIBRARY_PATH = "/render/lib";

export const libraryUrl = (name: string) => `${STATIC_ORIGIN}${LIBRARY_PATH}/${name}.js`;

/** `<script>` tags of the libraries a layer asked for, Tailwind first (it styles what the others draw). */
export const libraryScripts = (opts: object): string =>
  libraryNames(opts)
    .map((n) => `<script src="${libraryUrl(n)}"></script>`)
    .join("");

export { stripLibraryImports };
