/**
 * The unit tier, `npm run test:unit`: tests that need no process, browser or workerd (the render contract's
 * grammar and timeline, parsers, graph and argument builders, progress parsing, the render queue, caption layout,
 * the Worker's pure modules, the scripts' pure helpers). Plain Node, one worker thread per core and no per-file
 * isolation (these tests share no state), so the tier runs in seconds. A test that needs ffmpeg, Chromium, a server
 * or workerd belongs to the renderer, Worker or end-to-end suite instead.
 */
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "packages/contract/test/**/*.test.ts",
      "renderer/test/unit/**/*.test.ts",
      "test/unit/**/*.test.ts",
    ],
    // Writes real MP4 files with ffmpeg: runs in the renderer suite (renderer/vitest.config.ts).
    exclude: [...configDefaults.exclude, "packages/contract/test/iso-tracks.test.ts"],
    environment: "node",
    pool: "threads",
    isolate: false,
    passWithNoTests: true,
    // Generous for a busy machine; nothing here should come near it.
    testTimeout: 30_000,
  },
});
