/**
 * Worker tests: run inside workerd by the Workers test plugin with the real local D1, R2, Queues, Durable
 * Objects and Browser Rendering, in two projects side by side:
 * - `worker-render`: the files under test/worker/render/, which render through the real renderer (renderer/,
 *   started once by test/worker/renderer-setup.ts on a free port) or the real image browser (Chromium);
 * - `worker`: every other file, with no renderer at all: RENDERER_URL names a port nothing listens on, so a test
 *   that needs the renderer fails here and belongs under test/worker/render/.
 * Each project runs its files one after another in one workerd (`isolate: false`): the runtime, the Worker's
 * modules and the D1 migrations are paid once per project instead of once per file. Files therefore share the
 * local D1, R2 and Durable Objects; every test makes its own accounts and keys (helpers.ts) and may not assume
 * an empty table.
 * The plugin also reads the checkout's .dev.vars (wrangler's local secrets, beside wrangler.toml): the bindings below
 * set every value a developer's `npm start` writes there (start.mjs), so a setting left from an earlier run (its
 * ports, its parallel-rendering threshold) never reaches the tests.
 */
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { TEST_SECRETS } from "./test/worker/secrets.ts";

/** Port 9 (discard) on loopback: nothing listens, so a call to the renderer is refused at once. */
const NO_RENDERER = "http://127.0.0.1:9";

const SHARED_SETUP = ["test/worker/global-setup.ts"];

export default defineConfig(async () => {
  const migrations = await readD1Migrations("migrations");
  return {
    plugins: [
      cloudflareTest(({ inject }) => ({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            ...TEST_SECRETS,
            TEST_MIGRATIONS: migrations,
            RENDERER_URL: inject("rendererUrl") ?? NO_RENDERER,
            PUBLIC_URL: "http://127.0.0.1:8787",
            ENVIRONMENT: "development",
            FONT_CATALOGUE_ONLINE: "false",
            CAPTCHA_ENABLED: "false",
            IMAGE_BROWSERS: "2",
            // Image captures end at 5 s (production 20 s): the hostile pages that loop until it end sooner.
            IMAGE_CAPTURE_SECONDS: "5",
            // Enough for the suite's sign-ups on loopback (production: 5 and 60 per hour).
            AUTH_EMAIL_LIMIT_PER_HOUR: "100",
            AUTH_IP_LIMIT_PER_HOUR: "1000",
            // The default threshold (a minute of 720p): `npm start` may have left another in .dev.vars.
            PARALLEL_RENDER_MIN_WORK: "",
            PARALLEL_CAPTIONED_CHUNK_SECONDS: "",
          },
        },
      })),
    ],
    test: {
      setupFiles: ["test/worker/apply-migrations.ts"],
      isolate: false,
      // The Worker's dependencies arrive in workerd pre-bundled, a few modules instead of hundreds: vitest's own
      // process spends most of a project's start transforming modules (each one parsed, rewritten and source-mapped).
      // Every package the Worker imports belongs here (one not listed still works, module by module): a health-check
      // file's run transformed 888 modules with the first six, 323 with all.
      deps: {
        optimizer: {
          ssr: {
            enabled: true,
            include: [
              "stripe",
              "valibot",
              "ajv",
              "ajv/dist/2020",
              "client-zip",
              "fflate",
              "drizzle-orm",
              "drizzle-orm/d1",
              "drizzle-orm/sqlite-core",
              "hono",
              "hono/cookie",
              "hono/factory",
              "hono/http-exception",
              "hono/request-id",
              // With hono's own chunk: matchedRoutes reads the request through a symbol of hono's (one copy).
              "hono/route",
              "hono/secure-headers",
              "hono/streaming",
              "hono/utils/cookie",
              "hono/utils/handler",
              "hono/utils/http-status",
              "hono-openapi",
              "@cloudflare/containers",
              "@cloudflare/puppeteer",
              "@modelcontextprotocol/sdk/server/index.js",
              "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js",
              "@modelcontextprotocol/sdk/types.js",
              "@paralleldrive/cuid2",
              "csv-parse/sync",
              "zod",
              "zod/v4/core",
              "zod-to-json-schema",
            ],
            // @cloudflare/puppeteer names Node built-ins, which workerd provides (nodejs_compat): left to it.
            rolldownOptions: {
              external: [/^node:/, "fs/promises", "path", "fs", "crypto", "stream", "util"],
            },
          },
        },
      },
      testTimeout: 30_000,
      hookTimeout: 60_000,
      projects: [
        {
          extends: true as const,
          test: {
            name: "worker",
            include: ["test/worker/**/*.test.ts"],
            // unit/: the Worker's pure modules, run in Node by the unit tier (vitest.unit.config.ts).
            exclude: ["test/worker/render/**", "test/worker/unit/**"],
            globalSetup: [...SHARED_SETUP, "test/worker/memory-probe.ts"],
          },
        },
        {
          extends: true as const,
          test: {
            name: "worker-render",
            include: ["test/worker/render/**/*.test.ts"],
            globalSetup: [
              ...SHARED_SETUP,
              "test/worker/renderer-setup.ts",
              "test/worker/render/pixel-server.ts",
            ],
          },
        },
      ],
    },
  };
});
