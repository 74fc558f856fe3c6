#!/usr/bin/env node
// Copies what image/html rendering serves to Chromium out of node_modules into static/render/ (the Worker's
// [assets] folder, read through the ASSETS binding, never fetched from a CDN):
//   static/render/fonts/<id>/<weight>-<subset>.woff2   catalogue fonts (@fontsource/*, packages/contract/src/fonts/families.json)
//   static/render/lib/<name>.js                        html-layer libraries (enableLibraries / tailwindcss)
//   static/docs/swagger-ui-bundle.js, swagger-ui.css    the API docs UI (swagger-ui-dist), served by the Worker
// and writes packages/contract/src/fonts/catalog-data.json (families, weights, subset ranges) that validation, the image
// compiler and the video renderer read (the renderer loads the same @fontsource files from its own dependencies).
// Runs on `npm install` (postinstall) with plain Node >= 20; idempotent. `--check` only verifies.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const modules = join(root, "node_modules");
const out = join(root, "static", "render");
const check = process.argv.includes("--check");

/** Browser builds of the html-layer libraries: output name -> file inside its npm package (one list, shared
 * with the image and video renderers: packages/contract/src/html-libraries.json). */
const libraries = JSON.parse(
  readFileSync(join(root, "packages", "contract", "src", "html-libraries.json"), "utf8"),
);
export const LIBRARY_FILES = Object.fromEntries(
  [libraries.tailwind, ...libraries.libraries].map((l) => [l.name, l.file]),
);

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
const problems = [];

const copy = (from, to) => {
  if (!existsSync(from)) return void problems.push(`missing ${from} (run npm install)`);
  if (existsSync(to) && readFileSync(to).equals(readFileSync(from))) return;
  if (check) return void problems.push(`out of date: ${to}`);
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
};

const { subsets, families } = readJson(join(root, "packages", "contract", "src", "fonts", "families.json"));
const ranges = {};
const catalog = [];
for (const id of families) {
  const pkg = join(modules, "@fontsource", id);
  if (!existsSync(pkg)) {
    problems.push(`missing @fontsource/${id} (run npm install)`);
    continue;
  }
  const meta = readJson(join(pkg, "metadata.json"));
  const unicode = readJson(join(pkg, "unicode.json"));
  const own = subsets.filter((s) => meta.subsets.includes(s));
  for (const subset of own) ranges[subset] ??= unicode[subset];
  const weights = meta.weights.filter((w) =>
    own.some((s) => existsSync(join(pkg, "files", `${id}-${s}-${w}-normal.woff2`))),
  );
  for (const w of weights)
    for (const subset of own) {
      const file = join(pkg, "files", `${id}-${subset}-${w}-normal.woff2`);
      if (existsSync(file)) copy(file, join(out, "fonts", id, `${w}-${subset}.woff2`));
    }
  catalog.push({
    family: meta.family,
    id,
    weights,
    subsets: own,
    version: readJson(join(pkg, "package.json")).version,
  });
}
for (const [name, file] of Object.entries(LIBRARY_FILES))
  copy(join(modules, file), join(out, "lib", `${name}.js`));

for (const file of ["swagger-ui-bundle.js", "swagger-ui.css"])
  copy(join(modules, "swagger-ui-dist", file), join(root, "static", "docs", file));

const data = `${JSON.stringify({ subsets: ranges, families: catalog }, null, 2)}\n`;
const dataFile = join(root, "packages", "contract", "src", "fonts", "catalog-data.json");
if (!existsSync(dataFile) || readFileSync(dataFile, "utf8") !== data) {
  if (check) problems.push(`out of date: ${dataFile}`);
  else writeFileSync(dataFile, data);
}
if (problems.length) {
  console.error(`[render-assets] ${problems.join("\n[render-assets] ")}`);
  process.exit(1);
}
if (!check)
  console.log(
    `[render-assets] ${catalog.length} font families and ${Object.keys(LIBRARY_FILES).length} libraries in static/render`,
  );
