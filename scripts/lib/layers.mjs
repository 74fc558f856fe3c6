// The folder-level import graph of a source root, and its cycles (scripts/check-layers.mjs, `npm run lint`). A domain
// folder is a folder directly under the root (src/jobs, renderer/src/video); the files directly in the root
// (src/app.ts, src/context.ts...) wire the folders together and are left out. Every relative import counts, type-only
// ones and re-exports included (a type import is still a dependency), and `import("literal")`.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { parseSync } from "oxc-parser";

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;

/** Every source file under `dir`, recursively. */
const sourceFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : SOURCE.test(e.name) ? [join(dir, e.name)] : [],
  );

/**
 * The relative imports and re-exports of `file`, static or by `import("literal")`: `{ spec, typeOnly }`, where
 * `typeOnly` says every name it brings is a type (`import type`, `import { type A }`, `export type ... from`).
 */
const relativeImportsOf = (file) => {
  const text = readFileSync(file, "utf8");
  const { module, errors } = parseSync(file, text);
  if (errors.length) throw new Error(`${file}: ${errors[0].message}`);
  const typeOnly = (entries) => entries.length > 0 && entries.every((e) => e.isType);
  const found = [
    ...module.staticImports.map((i) => ({ spec: i.moduleRequest.value, typeOnly: typeOnly(i.entries) })),
    ...module.staticExports.flatMap((e) =>
      e.entries.map((x) => ({ spec: x.moduleRequest?.value, typeOnly: x.isType === true })),
    ),
    ...module.dynamicImports.map((dynamicImport) => ({
      spec: /^["'`](.*)["'`]$/s.exec(
        text.slice(dynamicImport.moduleRequest.start, dynamicImport.moduleRequest.end),
      )?.[1],
      typeOnly: false,
    })),
  ].filter((i) => i.spec?.startsWith("./") || i.spec?.startsWith("../"));
  // One entry per specifier: type-only when every import of it is.
  const bySpec = new Map();
  for (const i of found) bySpec.set(i.spec, (bySpec.get(i.spec) ?? true) && i.typeOnly);
  return [...bySpec].map(([spec, only]) => ({ spec, typeOnly: only }));
};

/** The relative specifiers `file` imports or re-exports, statically or by `import("literal")`. */
const relativeImports = (file) => relativeImportsOf(file).map((i) => i.spec);

/**
 * The folder-level import graph of `root`: `edges.get("a -> b")` lists the `file ("specifier")` imports that make
 * folder a import folder b.
 */
export const folderGraph = (root) => {
  const folderOf = (path) => {
    const parts = relative(root, path).split(sep);
    return parts.length > 1 && parts[0] !== ".." ? parts[0] : null;
  };
  const edges = new Map();
  for (const file of sourceFiles(root)) {
    const from = folderOf(file);
    if (!from) continue;
    for (const spec of relativeImports(file)) {
      const to = folderOf(resolve(dirname(file), spec));
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, []);
      edges.get(key).push(`${relative(process.cwd(), file)} ("${spec}")`);
    }
  }
  return edges;
};

/** The sets of folders that reach each other (strongly connected components of more than one folder). */
export const folderCycles = (edges) => {
  const next = new Map();
  for (const key of edges.keys()) {
    const [a, b] = key.split(" -> ");
    if (!next.has(a)) next.set(a, []);
    if (!next.has(b)) next.set(b, []);
    next.get(a).push(b);
  }
  // Tarjan's algorithm.
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const cycles = [];
  const visit = (folder) => {
    index.set(folder, counter);
    low.set(folder, counter++);
    stack.push(folder);
    for (const w of next.get(folder)) {
      if (!index.has(w)) {
        visit(w);
        low.set(folder, Math.min(low.get(folder), low.get(w)));
      } else if (stack.includes(w)) low.set(folder, Math.min(low.get(folder), index.get(w)));
    }
    if (low.get(folder) !== index.get(folder)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      component.push(w);
    } while (w !== folder);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const folder of [...next.keys()].sort()) if (!index.has(folder)) visit(folder);
  return cycles;
};

/** Problems of `roots` as text lines; none when every root's folders are layered one way. */
export const layerProblems = (roots) =>
  roots.flatMap((root) => {
    const edges = folderGraph(resolve(root));
    return folderCycles(edges).flatMap((cycle) => [
      `${root}: folders ${cycle.join(", ")} import each other:`,
      ...[...edges]
        .filter(([key]) => key.split(" -> ").every((f) => cycle.includes(f)))
        .flatMap(([key, files]) => [`  ${key}`, ...files.map((f) => `    ${f}`)]),
    ]);
  });

/**
 * Relative imports of files under each root that leave it (`../../client/src/schema.ts`, `../../../src/...`): a
 * root imports other workspaces by name (`@media-render/contract/wire`) and only its own files by path.
 */
export const escapeProblems = (roots) =>
  roots.flatMap((root) => {
    const base = resolve(root);
    return sourceFiles(base).flatMap((file) =>
      relativeImports(file)
        .filter((spec) => relative(base, resolve(dirname(file), spec)).startsWith(".."))
        .map((spec) => `${root}: ${relative(process.cwd(), file)} ("${spec}") reaches outside ${root}`),
    );
  });

/**
 * Imports that break a floor rule: `{ root, floor, below, types }` says the folder `floor` of `root` imports only
 * itself, the folders `below` it, and the root files `types` for their types alone (type-only imports).
 */
export const floorProblems = (rules) =>
  rules.flatMap(({ root, floor, below = [], types = [] }) => {
    const base = resolve(root);
    return sourceFiles(join(base, floor)).flatMap((file) =>
      relativeImportsOf(file).flatMap(({ spec, typeOnly }) => {
        const target = relative(base, resolve(dirname(file), spec)).split(sep);
        const top = target[0];
        if (target.length > 1 && (top === floor || below.includes(top))) return [];
        if (target.length === 1 && types.includes(top) && typeOnly) return [];
        const may = [floor, ...below].map((f) => `${f}/`).join(", ");
        const typesNote = types.length ? `, and types only from ${types.join(", ")}` : "";
        return [
          `${root}/${floor} is a floor: ${relative(process.cwd(), file)} ("${spec}") imports beyond ${may}${typesNote}`,
        ];
      }),
    );
  });

/**
 * Imports from a root's folders into its files at the root (the wiring: app.ts, settings.ts...) beyond `{ root, types }`:
 * a folder may take only the types of the root files `types` (the bag of dependencies the root passes down), so
 * values flow from the root into the folders and never back.
 */
export const wiringProblems = (rules) =>
  rules.flatMap(({ root, types = [] }) => {
    const base = resolve(root);
    return sourceFiles(base)
      .filter((file) => relative(base, file).includes(sep))
      .flatMap((file) =>
        relativeImportsOf(file).flatMap(({ spec, typeOnly }) => {
          const target = relative(base, resolve(dirname(file), spec));
          if (target.includes(sep) || target.startsWith("..")) return [];
          if (typeOnly && types.includes(target)) return [];
          return [
            `${root}: ${relative(process.cwd(), file)} ("${spec}") imports the wiring at the root` +
              (types.length ? ` (a folder takes only the types of ${types.join(", ")})` : ""),
          ];
        }),
      );
  });
