// A mirror of the checkout: a folder with a symlink per top-level entry. wrangler writes its .wrangler/ (bundles,
// temporary files) beside the config it reads, so a wrangler run from a mirror writes into the mirror, not into the
// checkout (the deploy script's dry run; npm start with STATE_DIR, as the tests and benchmarks run it).
import { mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";

/**
 * Fills `dir` (made if missing, expected empty) with a symlink to each top-level entry of `root` except .git,
 * .wrangler and those named in `except` (which the caller writes into the mirror itself); returns `dir`.
 */
export const mirrorCheckout = (root, dir, except = []) => {
  const skip = new Set([".git", ".wrangler", ...except]);
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(root))
    if (!skip.has(entry)) symlinkSync(join(root, entry), join(dir, entry));
  return dir;
};
