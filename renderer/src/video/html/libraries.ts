/**
 * The html-layer libraries (config reference §4) for video jobs, read from the renderer's own npm
 * dependencies (renderer/package.json lists them; never a CDN) and served to the page from memory.
 * The list (shared with image jobs and the install script) is packages/contract/src/html-libraries.ts.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { libraryByName } from "@media-render/contract/html-libraries";

export { libraryNames, stripLibraryImports } from "@media-render/contract/html-libraries";

/** Absolute path of a file inside an installed package (walks node_modules like require, ignoring `exports`). */
const packageFile = (file: string): string => {
  const req = createRequire(import.meta.url);
  const pkg = file.startsWith("@") ? file.split("/").slice(0, 2).join("/") : file.split("/")[0]!;
  for (const dir of req.resolve.paths(pkg) ?? []) {
    const candidate = join(dir, file);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`html layer library file missing: ${file} (npm install in the renderer)`);
};

const cache = new Map<string, Promise<Buffer>>();

/** The library's source, read once per process. */
export const librarySource = (name: string): Promise<Buffer> => {
  const file = libraryByName(name)?.file;
  if (!file) return Promise.reject(new Error(`unknown library ${name}`));
  let hit = cache.get(name);
  if (!hit) {
    hit = readFile(packageFile(file));
    hit.catch(() => cache.delete(name));
    cache.set(name, hit);
  }
  return hit;
};
