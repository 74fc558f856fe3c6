/**
 * Renderer and render-contract tests, run from the repo root: `npx vitest run --config renderer/vitest.config.ts`
 * (`npm run test:renderer`). Plain Node environment: the tests start the real server and the real tools. The
 * contract package's own tests (packages/contract/test) run here too: the contract must work under Node as it is
 * (type stripping).
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: [
      "renderer/test/**/*.test.ts",
      "packages/contract/test/**/*.test.ts",
      "test/scripts/**/*.test.ts",
      // Plain-Node unit tests of the whole repository (until they get a runner of their own).
      "test/unit/**/*.test.ts",
    ],
    environment: "node",
    // ffmpeg-backed tests spawn real processes; a slow 2-core machine needs more than the 5 s default.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
