/**
 * The html-layer libraries (config reference §4), served from local copies of the npm packages
 * (static/render/lib, see scripts/build-render-assets.mjs), never from a CDN.
 */
import { STATIC_ORIGIN } from "../origins";

export const LIBRARY_PATH = "/render/lib";

/** Name (file under static/render/lib), the global it defines, and what a user's CDN `<script src>` of it looks like. */
export const LIBRARIES = [
  { name: "gsap", global: "gsap", pattern: /(?:^|[/@])gsap(?:@[^/]*)?\/|\/gsap(?:\.min)?\.js/i },
  {
    name: "lottie",
    global: "lottie",
    pattern: /lottie(?:-web)?(?:@[^/]*)?\/|lottie(?:[._-][a-z_]+)*(?:\.min)?\.js/i,
  },
  { name: "chart", global: "Chart", pattern: /chart\.js(?:@[^/]*)?(?:\/|$)|chart(?:\.umd)?(?:\.min)?\.js/i },
  { name: "motion", global: "Motion", pattern: /(?:^|[/@])motion(?:@[^/]*)?\/|\/motion(?:\.min)?\.js/i },
  {
    name: "anime",
    global: "anime",
    pattern: /anime(?:js)?(?:@[^/]*)?\/|anime(?:\.umd|\.es|\.esm)?(?:\.min)?\.js/i,
  },
  { name: "d3", global: "d3", pattern: /(?:^|[/@])d3(?:@[^/]*)?(?:\/|$)|\/d3(?:\.v\d+)?(?:\.min)?\.js/i },
  { name: "lucide", global: "lucide", pattern: /lucide(?:@[^/]*)?\/|lucide(?:\.min)?\.js/i },
] as const;

const TAILWIND = /tailwindcss|cdn\.tailwindcss\.com|@tailwindcss\/browser/i;

export const libraryUrl = (name: string) => `${STATIC_ORIGIN}${LIBRARY_PATH}/${name}.js`;

/** `<script>` tags of the libraries a layer asked for, Tailwind first (it styles what the others draw). */
export const libraryScripts = (opts: { enableLibraries?: boolean; tailwindcss?: boolean }): string => {
  const names = [
    ...(opts.enableLibraries || opts.tailwindcss ? ["tailwind"] : []),
    ...(opts.enableLibraries ? LIBRARIES.map((l) => l.name) : []),
  ];
  return names.map((n) => `<script src="${libraryUrl(n)}"></script>`).join("");
};

const SCRIPT_SRC = /<script\b[^>]*\bsrc\s*=\s*(["']?)([^"'\s>]+)\1[^>]*>\s*<\/script\s*>/gi;

/**
 * Removes the user's own `<script src>` imports of libraries we preload (duplicates would load twice or
 * fight over globals, and their CDN could not be reached anyway). Other external scripts stay and are
 * refused by the page's policy.
 */
export const stripLibraryImports = (
  html: string,
  opts: { enableLibraries?: boolean; tailwindcss?: boolean },
) =>
  html.replace(SCRIPT_SRC, (tag, _q: string, src: string) => {
    if ((opts.enableLibraries || opts.tailwindcss) && TAILWIND.test(src)) return "";
    if (opts.enableLibraries && LIBRARIES.some((l) => l.pattern.test(src))) return "";
    return tag;
  });
