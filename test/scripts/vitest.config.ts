/**
 * The scripts' tests, `npm run test:scripts`: the project's own tooling run as a user runs it (the deploy script's
 * dry run with the real wrangler, the local migrations against wrangler's bookkeeping, the sealed local Chrome, the
 * production image read as a builder reads it, the generated client's schema, the layer check). Plain Node; real
 * processes, no renderer server. `npm test` runs them in the checks' lane, beside the suites.
 */
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("../..", import.meta.url)),
    include: ["test/scripts/**/*.test.ts"],
    // unit/: the scripts' pure helpers, run by the unit tier (vitest.unit.config.ts).
    exclude: [...configDefaults.exclude, "test/scripts/unit/**"],
    environment: "node",
    isolate: false,
    // They start wrangler, Chromium and node processes: a busy 2-core machine needs more than the 5 s default.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
