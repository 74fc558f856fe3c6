/**
 * Global setup of the Worker tests that need the real renderer (the `worker-render` project of vitest.config.ts,
 * the files under test/worker/render/): starts it once, a plain Node process as `npm start` runs it, for all of
 * them.
 */
import type { TestProject } from "vitest/node";
import { freePort, startRenderer, stopProcess, waitForUrl } from "../../scripts/lib/processes.mjs";
import { TEST_SECRETS } from "./secrets.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** The renderer's base URL; absent in the project that runs without one. */
    rendererUrl?: string;
  }
}

export default async function setup(project: TestProject) {
  const port: number = await freePort();
  const child = startRenderer(process.cwd(), port, TEST_SECRETS.RENDERER_SECRET, { quiet: true });
  const url = `http://127.0.0.1:${port}`;
  await waitForUrl(`${url}/health`, 60_000, child);
  project.provide("rendererUrl", url);
  return () => stopProcess(child);
}
