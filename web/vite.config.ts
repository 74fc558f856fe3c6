/**
 * The web build: one Vite project for every page the Worker serves from static/web (src/console/routes.ts).
 * Each page is an HTML entry here: the console is index.html, the builder builder.html (reusing src/shared: API
 * client, errors, layout) and its preview frame builder-preview.html (src/builder/routes.ts serves both). JSX
 * compiles to Preact by Vite's own transform.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { transitionSprite } from "./build/transition-sprite.ts";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** A chunk or asset name as a file name the Worker serves. */
const servedName = (name: string) => name.replaceAll("~", "-");

export default defineConfig({
  root: here("."),
  // The Worker serves the build under /web/ (MOUNTS.web).
  base: "/web/",
  publicDir: here("public"),
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  plugins: [transitionSprite()],
  logLevel: "warn",
  build: {
    outDir: here("../static/web"),
    emptyOutDir: true,
    target: "es2022",
    // Every browser the console supports has modulepreload; the polyfill would be dead weight.
    modulePreload: { polyfill: false },
    // Nothing inlined as data: URLs; every file comes from this origin under the CSP.
    assetsInlineLimit: 0,
    rolldownOptions: {
      input: {
        console: here("index.html"),
        builder: here("builder.html"),
        "builder-preview": here("builder-preview.html"),
      },
      output: {
        // Code two or more pages share goes to chunks named `shared` (one per set of pages sharing it, so no page
        // loads code it does not use): left to itself, rolldown names such a chunk after one module in it (a
        // component, say), which misleads whoever reads the build.
        codeSplitting: { groups: [{ name: "shared", minShareCount: 2, entriesAware: true }] },
        // rolldown names those chunks `shared~console~builder`; the Worker serves only `[\w.-]` names
        // (src/console/routes.ts), so the pages' names are joined by `-` instead.
        chunkFileNames: (chunk) => `assets/${servedName(chunk.name)}-[hash].js`,
        assetFileNames: (asset) =>
          `assets/${servedName(asset.names[0]?.replace(/\.\w+$/, "") ?? "asset")}-[hash][extname]`,
      },
    },
  },
});
