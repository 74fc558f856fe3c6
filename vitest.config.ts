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
 */
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export const TEST_SECRETS = {
  RENDERER_SECRET: "test-renderer-secret-0123456789abcdef",
  STORAGE_SIGNING_SECRET: "test-storage-secret-0123456789abcdef",
  AUTH_SECRET: "test-auth-secret-0123456789abcdef",
  DATA_ENCRYPTION_KEY: "test-data-encryption-key-0123456789abcdef",
  STRIPE_WEBHOOK_SECRET: "whsec_dGVzdC13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5",
};

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
            // Image captures end at 8 s (production 20 s): the hostile pages that loop until it end sooner.
            IMAGE_CAPTURE_SECONDS: "8",
            // Enough for the suite's sign-ups on loopback (production: 5 and 60 per hour).
            AUTH_EMAIL_LIMIT_PER_HOUR: "100",
            AUTH_IP_LIMIT_PER_HOUR: "1000",
          },
        },
      })),
    ],
    test: {
      setupFiles: ["test/worker/apply-migrations.ts"],
      isolate: false,
      // The largest dependencies arrive in workerd pre-bundled, one module each instead of hundreds: vitest's own
      // process spent about half the suite's CPU transforming and serving modules (5 files: 39 to 32 CPU-seconds).
      deps: {
        optimizer: {
          ssr: {
            enabled: true,
            include: ["stripe", "valibot", "ajv", "ajv/dist/2020", "client-zip", "fflate"],
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
            exclude: ["test/worker/render/**"],
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
