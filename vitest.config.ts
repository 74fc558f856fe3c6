/**
 * Worker tests: run inside workerd by the Workers test plugin with the real local D1, R2, Queues, Durable
 * Objects and Browser Rendering. The global setup starts the real renderer (renderer/) on a free port.
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
            RENDERER_URL: inject<string>("rendererUrl"),
            PUBLIC_URL: "http://127.0.0.1:8787",
            ENVIRONMENT: "development",
            FONT_CATALOGUE_ONLINE: "false",
            CAPTCHA_ENABLED: "false",
            IMAGE_BROWSERS: "2",
            // Enough for the suite's sign-ups on loopback (production: 5 and 60 per hour).
            AUTH_EMAIL_LIMIT_PER_HOUR: "100",
            AUTH_IP_LIMIT_PER_HOUR: "1000",
          },
        },
      })),
    ],
    test: {
      include: ["test/worker/**/*.test.ts"],
      globalSetup: [
        "test/worker/global-setup.ts",
        "test/worker/render/pixel-server.ts",
        "test/worker/memory-probe.ts",
      ],
      setupFiles: ["test/worker/apply-migrations.ts"],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
});
