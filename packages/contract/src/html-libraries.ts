/**
 * The html-layer libraries (config reference §4), one list for image jobs (the Worker bundles this file)
 * and video jobs (the renderer): name, the global it defines, its browser build inside the npm package
 * (served from local copies, never a CDN), and what a user's CDN `<script src>` of it looks like.
 * The data is JSON so scripts/build-render-assets.mjs (plain Node at install time) reads the same list.
 * It lives under renderer/ because the renderer image holds only that folder.
 */
import data from "./html-libraries.json" with { type: "json" };

export interface HtmlLibrary {
  name: string;
  global: string;
  /** Path of the browser build inside node_modules. */
  file: string;
  pattern: RegExp;
}

const compile = (library: (typeof data.libraries)[number]): HtmlLibrary => ({
  ...library,
  pattern: new RegExp(library.pattern, "i"),
});

/** The libraries `enableLibraries` preloads, in load order after Tailwind. */
export const LIBRARIES: readonly HtmlLibrary[] = data.libraries.map(compile);
/** The utility CSS framework: loaded by `enableLibraries` or `tailwindcss` alone. */
export const TAILWIND: HtmlLibrary = compile(data.tailwind);

/** The layer flags that load libraries; functions take any layer object and read only these. */
export interface LibraryOptions {
  enableLibraries?: unknown;
  tailwindcss?: unknown;
}
const flags = (layer: object) => layer as LibraryOptions;

/** Library names a layer loads, Tailwind first (it styles what the others draw). */
export const libraryNames = (layer: object): string[] => {
  const options = flags(layer);
  return [
    ...(options.enableLibraries === true || options.tailwindcss === true ? [TAILWIND.name] : []),
    ...(options.enableLibraries === true ? LIBRARIES.map((l) => l.name) : []),
  ];
};

/** Every library by name, Tailwind included. */
export const libraryByName = (name: string): HtmlLibrary | undefined =>
  name === TAILWIND.name ? TAILWIND : LIBRARIES.find((l) => l.name === name);

const SCRIPT_SRC = /<script\b[^>]*\bsrc\s*=\s*(["']?)([^"'\s>]+)\1[^>]*>\s*<\/script\s*>/gi;

/**
 * Removes the user's own `<script src>` imports of libraries we preload (duplicates would load twice or
 * fight over globals, and their CDN could not be reached anyway). Other external scripts stay and are
 * refused by the page's policy.
 */
export const stripLibraryImports = (html: string, layer: object): string => {
  const options = flags(layer);
  const libs = options.enableLibraries === true;
  const tw = libs || options.tailwindcss === true;
  return html.replace(SCRIPT_SRC, (tag, _q: string, src: string) => {
    if (tw && TAILWIND.pattern.test(src)) return "";
    if (libs && LIBRARIES.some((l) => l.pattern.test(src))) return "";
    return tag;
  });
};
