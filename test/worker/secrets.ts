/**
 * The secrets the Worker tests run with (vitest.config.ts binds them; renderer-setup.ts gives the renderer the same
 * RENDERER_SECRET). A module of its own so that the renderer's setup does not import the vitest configuration, which
 * would load vite, miniflare and the Workers test plugin a second time through vitest's module runner.
 */
export const TEST_SECRETS = {
  RENDERER_SECRET: "test-renderer-secret-0123456789abcdef",
  STORAGE_SIGNING_SECRET: "test-storage-secret-0123456789abcdef",
  AUTH_SECRET: "test-auth-secret-0123456789abcdef",
  DATA_ENCRYPTION_KEY: "test-data-encryption-key-0123456789abcdef",
  STRIPE_WEBHOOK_SECRET: "whsec_dGVzdC13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5",
};
