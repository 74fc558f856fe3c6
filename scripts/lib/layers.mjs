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

/** The relative specifiers `file` imports or re-exports, statically or by `import("literal")`. */
const relativeImports = (file) => {
  const text = readFileSync(file, "utf8");
  const { module, errors } = parseSync(file, text);
  if (errors.length) throw new Error(`${file}: ${errors[0].message}`);
  const specs = [
    ...module.staticImports.map((i) => i.moduleRequest.value),
    ...module.staticExports.flatMap((e) => e.entries.map((x) => x.moduleRequest?.value)),
    ...module.dynamicImports.map(
      (d) => /^["'`](.*)["'`]$/s.exec(text.slice(d.moduleRequest.start, d.moduleRequest.end))?.[1],
    ),
  ];
  return [...new Set(specs.filter((s) => s?.startsWith("./") || s?.startsWith("../")))];
};

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
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    for (const w of next.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
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
