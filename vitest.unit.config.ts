/**
 * The unit tier, `npm run test:unit`: tests that need no process, browser or workerd (the render contract's
 * grammar and timeline, parsers, graph and argument builders, progress parsing, the render queue, caption layout,
 * the Worker's pure modules, the scripts' pure helpers). Plain Node, one worker thread per core and no per-file
 * isolation (these tests share no state), so the tier runs in seconds. A test that needs ffmpeg, Chromium, a server
 * or workerd belongs to the renderer, Worker or end-to-end suite instead.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Each unit tree mirrors the source it tests (CONTRIBUTING.md, "Where a test goes"); the top of test/ holds the
    // tests of the repository as a whole and of the helpers the suites share.
    include: [
      "packages/contract/test/unit/**/*.test.ts",
      "renderer/test/unit/**/*.test.ts",
      "web/test/unit/**/*.test.ts",
      "client/test/unit/**/*.test.ts",
      "test/worker/unit/**/*.test.ts",
      "test/scripts/unit/**/*.test.ts",
      "test/*.test.ts",
    ],
    environment: "node",
    pool: "threads",
    isolate: false,
    passWithNoTests: true,
    // Generous for a busy machine; nothing here should come near it.
    testTimeout: 30_000,
  },
});
