/**
 * Where unit tests go (CONTRIBUTING.md, "Where a test goes"): each unit tree mirrors the source tree it tests, so the
 * tests of `<source>/<path>.ts` are `<unit>/<path>.test.ts` (or `<unit>/<path>.<aspect>.test.ts`), and a unit tree
 * holds tests only. The unit tier runs exactly these trees and the tests at the top of `test/`.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import unitConfig from "../vitest.unit.config.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Each unit tree and the source tree it mirrors. */
const TREES: [unit: string, source: string][] = [
  ["renderer/test/unit", "renderer/src"],
  ["packages/contract/test/unit", "packages/contract/src"],
  ["web/test/unit", "web/src"],
  ["client/test/unit", "client/src"],
  ["test/worker/unit", "src"],
  ["test/scripts/unit", "scripts"],
];

const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mjs"];

const filesUnder = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(join(root, dir), join(entry.parentPath, entry.name)));

/** The source files `test` (a path inside its unit tree) may be the test of: `a/b.test.ts`, `a/b.aspect.test.ts`. */
const subjectsOf = (test: string): string[] => {
  const stem = test.replace(/\.test\.ts$/, "");
  const stems = [stem, stem.replace(/\.[\w-]+$/, "")];
  return stems.flatMap((s) => SOURCE_EXTENSIONS.map((ext) => `${s}${ext}`));
};

describe("unit tests mirror their source", () => {
  it("runs exactly the unit trees and the tests at the top of test/", () => {
    const include = unitConfig.test?.include ?? [];
    expect([...include].sort()).toEqual(
      [...TREES.map(([unit]) => `${unit}/**/*.test.ts`), "test/*.test.ts"].sort(),
    );
  });

  for (const [unit, source] of TREES)
    it(`${unit} holds only tests, each at the path of a file of ${source}`, () => {
      const files = filesUnder(unit);
      expect(files.length).toBeGreaterThan(0);
      const strays = files.filter(
        (file) =>
          !file.endsWith(".test.ts") || !subjectsOf(file).some((s) => existsSync(join(root, source, s))),
      );
      expect(strays, `no ${source}/<path>.ts for these (or not a test)`).toEqual([]);
    });
});
