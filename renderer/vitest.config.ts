/**
 * Renderer and render-contract tests, run from the repo root: `npx vitest run --config renderer/vitest.config.ts`
 * (`npm run test:renderer`). Plain Node environment: the tests start the real server and the real tools. The
 * renderer's pure tests (renderer/test/unit) and the contract package's (packages/contract/test/unit) run in the unit
 * tier (vitest.unit.config.ts); the contract's one that writes files with ffmpeg runs here.
 */
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

// The renderer runs its own TypeScript on worker threads and in child processes (caption parsing, the WebP decoder):
// on a Node older than the project's these fail one by one with "Unknown file extension .ts". Say it once instead.
if (Number(process.versions.node.split(".")[0]) < 22)
  throw new Error(
    `the renderer's tests need the project's Node (node_modules/.bin/node); this is ${process.version}. ` +
      "Run them through npm test renderer, npm run test:renderer or npx vitest, which put it first on PATH.",
  );

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["renderer/test/**/*.test.ts", "packages/contract/test/iso-tracks.test.ts"],
    exclude: [...configDefaults.exclude, "renderer/test/unit/**"],
    environment: "node",
    isolate: false,
    // ffmpeg-backed tests spawn real processes; a slow 2-core machine needs more than the 5 s default.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
