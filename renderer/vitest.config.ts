/**
 * Renderer and render-contract tests, run from the repo root: `npx vitest run --config renderer/vitest.config.ts`
 * (`npm run test:renderer`). Plain Node environment: the tests start the real server and the real tools. The
 * renderer's pure tests (renderer/test/unit) and the contract package's (packages/contract/test/unit) run in the unit
 * tier (vitest.unit.config.ts); the contract's one that writes files with ffmpeg runs here.
 */
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

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
