/**
 * Starts the whole service the way the README says (`npm start` = scripts/start.mjs) on free ports with a
 * throw-away state directory, then creates an API key with `npm run key` (scripts/key.mjs). Two renderers
 * (RENDERERS=2) and a parallel-rendering threshold of 5 s of 720p, so that the fault suites (faults/) can kill,
 * freeze and split across renderers on the same service the other files use: one start for the whole suite.
 */
import type { TestProject } from "vitest/node";
import { startLocalService } from "../../scripts/lib/processes.mjs";

/** What the fault suites need to know of the service (faults/service.ts). */
interface ServiceFacts {
  /** The settings npm start ran with (PORT, STATE_DIR, ...): `npm run key` against the same local D1. */
  env: Record<string, string>;
  pidsFile: string;
  rendererPorts: number[];
}

declare module "vitest" {
  interface ProvidedContext {
    baseUrl: string;
    apiKey: string;
    stateDir: string;
    service: ServiceFacts;
  }
}

export default async function setup(project: TestProject) {
  const local = await startLocalService(process.cwd(), {
    quiet: !process.env.E2E_VERBOSE,
    timeoutMs: 150_000,
    renderers: 2,
    // Split from 5 s of 720p, captioned jobs too (production: a minute, and five minutes a captioned chunk).
    env: { PARALLEL_RENDER_MIN_WORK: String(5 * 1280 * 720), PARALLEL_CAPTIONED_CHUNK_SECONDS: "1" },
  });
  project.provide("baseUrl", local.base);
  project.provide("apiKey", await local.key({ email: "e2e@example.com", plan: "pro" }));
  project.provide("stateDir", local.stateDir);
  project.provide("service", {
    env: local.env,
    pidsFile: local.pidsFile,
    rendererPorts: local.rendererPorts,
  });
  return local.stop;
}
