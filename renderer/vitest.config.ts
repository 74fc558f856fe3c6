/**
 * Renderer and render-contract tests, run from the repo root: `npx vitest run --config renderer/vitest.config.ts`
 * (`npm run test:renderer`, both projects; `--project renderer` or `--project renderer-late` for one). Plain Node environment: the tests start the real server and the real tools. The
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

/**
 * The files of the second project, `renderer-late`: the fault and transcription tests, which spend much of their
 * time waiting (deadlines, a killed render, pocketsphinx on a part). `npm test` runs it in the end-to-end suite's lane,
 * after it, so the renderer's lane, the run's longest, ends with the others (docs/testing.md).
 */
const LATE = ["renderer/test/faults/**/*.test.ts", "renderer/test/transcribe/**/*.test.ts"];

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    environment: "node",
    isolate: false,
    // ffmpeg-backed tests spawn real processes; a slow 2-core machine needs more than the 5 s default.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true as const,
        test: {
          name: "renderer",
          include: ["renderer/test/**/*.test.ts", "packages/contract/test/iso-tracks.test.ts"],
          exclude: [...configDefaults.exclude, "renderer/test/unit/**", ...LATE],
        },
      },
      { extends: true as const, test: { name: "renderer-late", include: LATE } },
    ],
  },
});
