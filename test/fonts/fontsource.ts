/**
 * Real font files standing in for the hosted catalogue (no network here): @fontsource packages, pinned exact in the
 * root package.json (devDependencies), carry each family's woff2 files per unicode subset and weight with the
 * metadata the catalogue answers with (family, weights, the unicode-range of each subset). Shared by the Worker
 * tests' stand-in catalogue (test/worker/font-catalogue.ts, through global-setup.ts) and the renderer's tests.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** Families the stand-in catalogue has that the bundle lacks: right-to-left and complex scripts. */
export const STAND_IN_FAMILIES = ["noto-sans-arabic", "noto-sans-hebrew", "noto-sans-devanagari"] as const;

/** One family as the catalogue knows it. */
export interface FontsourceFamily {
  id: string;
  family: string;
  weights: number[];
  /** Subset name -> CSS unicode-range. */
  subsets: Record<string, string>;
}

const packageDir = (id: string) => dirname(require.resolve(`@fontsource/${id}/package.json`));

/** The family `id` (an @fontsource package id) as the catalogue describes it. */
export const fontsourceFamily = (id: string): FontsourceFamily => {
  const dir = packageDir(id);
  const meta = JSON.parse(readFileSync(join(dir, "metadata.json"), "utf8")) as {
    family: string;
    weights: number[];
  };
  const subsets = JSON.parse(readFileSync(join(dir, "unicode.json"), "utf8")) as Record<string, string>;
  return { id, family: meta.family, weights: meta.weights, subsets };
};

/** Local path of the woff2 file of `subset` at `weight` (normal style). */
export const fontsourceFile = (id: string, subset: string, weight: number): string =>
  join(packageDir(id), "files", `${id}-${subset}-${weight}-normal.woff2`);
