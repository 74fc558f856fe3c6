#!/usr/bin/env node
// `npm run lint`'s layer check: the domain folders of the Worker (src/) and of the renderer (renderer/src/) import
// each other one way only (scripts/lib/layers.mjs). oxlint's import/no-cycle sees cycles of files; this sees cycles
// of folders (jobs -> templates -> jobs through different files), which is what keeps a layer from reaching back up.
// Usage: node scripts/check-layers.mjs [root...]   (default: src renderer/src); exits 1 naming the imports of every
// cycle.
import { layerProblems } from "./lib/layers.mjs";

const roots = process.argv.slice(2);
const problems = layerProblems(roots.length ? roots : ["src", "renderer/src"]);
if (problems.length) {
  console.error(problems.join("\n"));
  console.error(
    'Domain folders are layered one way (CONTRIBUTING.md, "Layers"): move the piece both sides need into the lower ' +
      "folder or a leaf (src/lib/), rather than importing back up.",
  );
  process.exit(1);
}
console.log(
  `[layers] ${roots.length ? roots.join(", ") : "src, renderer/src"}: domain folders import one way`,
);
