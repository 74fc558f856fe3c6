/**
 * Starts the whole service the way the README says (`npm start` = scripts/start.mjs) on free ports with a
 * throw-away state directory, then creates an API key with `npm run key` (scripts/key.mjs).
 */
import type { TestProject } from "vitest/node";
import { startLocalService } from "../../scripts/lib/processes.mjs";

declare module "vitest" {
  interface ProvidedContext {
    baseUrl: string;
    apiKey: string;
    stateDir: string;
  }
}

export default async function setup(project: TestProject) {
  const local = await startLocalService(process.cwd(), {
    quiet: !process.env.E2E_VERBOSE,
    timeoutMs: 150_000,
  });
  project.provide("baseUrl", local.base);
  project.provide("apiKey", local.key({ email: "e2e@example.com", plan: "pro" }));
  project.provide("stateDir", local.stateDir);
  return local.stop;
}
