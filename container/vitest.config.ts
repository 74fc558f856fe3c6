/**
 * Renderer tests, run from the repo root: `npx vitest run --config container/vitest.config.ts`
 * (`npm run test:container`). Plain Node environment: the tests start the real server and the real tools.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["container/test/**/*.test.ts"],
    environment: "node",
    // ffmpeg-backed tests spawn real processes; a slow 2-core machine needs more than the 5 s default.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
