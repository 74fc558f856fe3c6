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
    },
  },
});
