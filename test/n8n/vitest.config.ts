/**
 * The n8n tier (`npm test n8n`): the community node in integrations/n8n built, packed and installed into a real n8n
 * (the npm package, started headless by global-setup.ts with its own data folder), whose workflows call the service
 * started as `npm start` starts it. Not part of a plain `npm test`: installing n8n costs minutes and gigabytes
 * (docs/testing.md); CI runs it as its own tier.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("../..", import.meta.url)),
    include: ["test/n8n/**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    globalSetup: ["test/n8n/global-setup.ts"],
    environment: "node",
    // One n8n and one service for every file; renders of a video take seconds on a busy 2-core machine.
    fileParallelism: false,
    isolate: false,
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
