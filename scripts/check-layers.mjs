#!/usr/bin/env node
// `npm run lint`'s layer check (CONTRIBUTING.md, "Layers"), three rules over scripts/lib/layers.mjs:
// - the domain folders of the Worker (src/), the renderer (renderer/src/) and the web app (web/src/) import each
//   other one way only. oxlint's import/no-cycle sees cycles of files; this sees cycles of folders (jobs ->
//   templates -> jobs through different files), which is what keeps a layer from reaching back up;
// - every workspace's sources import other workspaces by name and only their own files by path (web/src may not
//   reach into src/ or client/src/: the code both need is a package, packages/image-page, packages/contract);
// - the floors import nothing above them: the Worker's lib/ imports only lib/ and db/, and the request context
//   (context.ts, app-env.ts) for its types alone, so a helper takes `ctx` as an argument and never builds one;
// - the renderer's root files wire (server.ts, app.ts, settings.ts, deps.ts): they import the folders, and a folder takes
//   from them only the type of the bag they pass down (deps.ts's AppDeps), so settings flow one way (settings.ts reads
//   the environment over video/render-tools.ts's defaults; video/ never imports settings.ts).
// Usage: node scripts/check-layers.mjs [root...]   (default: every source root below); exits 1 naming the imports.
import { escapeProblems, floorProblems, layerProblems, wiringProblems } from "./lib/layers.mjs";

const LAYERED = ["src", "renderer/src", "web/src"];
const CONFINED = [...LAYERED, "client/src", "packages/contract/src", "packages/image-page/src"];
const FLOORS = [{ root: "src", floor: "lib", below: ["db"], types: ["context.ts", "app-env.ts"] }];
const WIRING = [{ root: "renderer/src", types: ["deps.ts"] }];

const roots = process.argv.slice(2);
const problems = roots.length
  ? [...layerProblems(roots), ...escapeProblems(roots)]
  : [
      ...layerProblems(LAYERED),
      ...escapeProblems(CONFINED),
      ...floorProblems(FLOORS),
      ...wiringProblems(WIRING),
    ];
if (problems.length) {
  console.error(problems.join("\n"));
  console.error(
    'Layers hold one way (CONTRIBUTING.md, "Layers"): move the piece both sides need into the lower folder, a leaf ' +
      "(src/lib/) or a package both import by name, rather than importing back up or across.",
  );
  process.exit(1);
}
console.log(
  `[layers] ${(roots.length ? roots : CONFINED).join(", ")}: folders import one way, workspaces by name` +
    (roots.length ? "" : ", floors stay down, the renderer's wiring stays up"),
);
