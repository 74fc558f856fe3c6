/**
 * The repository's source files, as the tests about the code as a whole (sizes, names, recipes) read them: every
 * TypeScript and JavaScript module under a source root, not tests, not type declarations, not node_modules.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));

/** Every source root: the Worker, the renderer, the web app, the packages, the client and the scripts. */
export const SOURCE_ROOTS = [
  "src",
  "renderer/src",
  "web/src",
  "packages/contract/src",
  "packages/image-page/src",
  "client/src",
  "scripts",
];

/** The source files under `dir` (a path from the repository's root), as paths from the root. */
export const sourceFiles = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? entry.name === "node_modules"
        ? []
        : sourceFiles(`${dir}/${entry.name}`)
      : /\.(ts|tsx|mts|mjs)$/.test(entry.name) && !/\.d\.m?ts$/.test(entry.name)
        ? [`${dir}/${entry.name}`]
        : [],
  );

/** The 1-based line of each character offset of `text`. */
export const lineFinder = (text: string): ((offset: number) => number) => {
  const starts = [0];
  for (let at = 0; at < text.length; at++) if (text.charCodeAt(at) === 10) starts.push(at + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
};
