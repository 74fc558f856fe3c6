/**
 * The html-layer libraries (config reference §4) for video jobs, read from the renderer's own npm
 * dependencies (container/package.json lists them; never a CDN) and served to the page from memory.
 * Same eight files and same versions as image jobs (scripts/build-render-assets.mjs LIBRARY_FILES);
 * the renderer image holds only container/, so the list is repeated here rather than imported.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";

/** Output name → file inside its npm package (browser builds that define the documented global). */
export const LIBRARY_FILES: Readonly<Record<string, string>> = {
  tailwind: "@tailwindcss/browser/dist/index.global.js",
  gsap: "gsap/dist/gsap.min.js",
  lottie: "lottie-web/build/player/lottie.min.js",
  chart: "chart.js/dist/chart.umd.min.js",
  motion: "motion/dist/motion.js",
  anime: "animejs/dist/bundles/anime.umd.min.js",
  d3: "d3/dist/d3.min.js",
  lucide: "lucide/dist/umd/lucide.min.js",
};

/** What a user's CDN `<script src>` of each library looks like (stripped: we preload them). */
const PATTERNS: readonly RegExp[] = [
  /(?:^|[/@])gsap(?:@[^/]*)?\/|\/gsap(?:\.min)?\.js/i,
  /lottie(?:-web)?(?:@[^/]*)?\/|lottie(?:[._-][a-z_]+)*(?:\.min)?\.js/i,
  /chart\.js(?:@[^/]*)?(?:\/|$)|chart(?:\.umd)?(?:\.min)?\.js/i,
  /(?:^|[/@])motion(?:@[^/]*)?\/|\/motion(?:\.min)?\.js/i,
  /anime(?:js)?(?:@[^/]*)?\/|anime(?:\.umd|\.es|\.esm)?(?:\.min)?\.js/i,
  /(?:^|[/@])d3(?:@[^/]*)?(?:\/|$)|\/d3(?:\.v\d+)?(?:\.min)?\.js/i,
  /lucide(?:@[^/]*)?\/|lucide(?:\.min)?\.js/i,
];
const TAILWIND = /tailwindcss|cdn\.tailwindcss\.com|@tailwindcss\/browser/i;
const SCRIPT_SRC = /<script\b[^>]*\bsrc\s*=\s*(["']?)([^"'\s>]+)\1[^>]*>\s*<\/script\s*>/gi;

export interface LibraryOptions {
  enableLibraries?: unknown;
  tailwindcss?: unknown;
  [other: string]: unknown;
}

/** Library names a layer loads, Tailwind first (it styles what the others draw). */
export function libraryNames(o: LibraryOptions): string[] {
  const names = Object.keys(LIBRARY_FILES);
  if (o.enableLibraries === true) return names;
  return o.tailwindcss === true ? ["tailwind"] : [];
}

/**
 * Removes the user's `<script src>` imports of libraries we preload (they would load twice, and their
 * CDN is unreachable anyway). Other external scripts stay and are refused by the page policy.
 */
export function stripLibraryImports(html: string, o: LibraryOptions): string {
  const libs = o.enableLibraries === true;
  const tw = libs || o.tailwindcss === true;
  return html.replace(SCRIPT_SRC, (tag, _q: string, src: string) => {
    if (tw && TAILWIND.test(src)) return "";
    if (libs && PATTERNS.some((p) => p.test(src))) return "";
    return tag;
  });
}

/** Absolute path of a file inside an installed package (walks node_modules like require, ignoring `exports`). */
function packageFile(file: string): string {
  const req = createRequire(import.meta.url);
  const pkg = file.startsWith("@") ? file.split("/").slice(0, 2).join("/") : file.split("/")[0]!;
  for (const dir of req.resolve.paths(pkg) ?? []) {
    const p = join(dir, file);
    if (existsSync(p)) return p;
  }
  throw new Error(`html layer library file missing: ${file} (npm install in the renderer)`);
}

const cache = new Map<string, Promise<Buffer>>();

/** The library's source, read once per process. */
export function librarySource(name: string): Promise<Buffer> {
  const file = LIBRARY_FILES[name];
  if (!file) return Promise.reject(new Error(`unknown library ${name}`));
  let hit = cache.get(name);
  if (!hit) {
    hit = readFile(packageFile(file));
    hit.catch(() => cache.delete(name));
    cache.set(name, hit);
  }
  return hit;
}
