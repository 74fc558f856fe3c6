/**
 * End-to-end tests: the service started exactly as `npm start` starts it, driven over HTTP on loopback; every
 * answer checked against the OpenAPI document (contract.ts).
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    globalSetup: ["test/e2e/global-setup.ts"],
    // Every answer the tests receive is held to the OpenAPI document.
    setupFiles: ["test/e2e/contract.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
