/**
 * Starts the whole service the way the README says (`npm start` = scripts/start.mjs) on free ports with a
 * throw-away state directory, then creates an API key with `npm run key` (scripts/key.mjs).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { freePort, startProcess, stopProcess, waitForUrl } from "../../scripts/lib/processes.mjs";

declare module "vitest" {
  interface ProvidedContext {
    baseUrl: string;
    apiKey: string;
    stateDir: string;
  }
}

export default async function setup(project: TestProject) {
  const root = process.cwd();
  const stateDir = mkdtempSync(join(tmpdir(), "mrs-e2e-"));
  const port: number = await freePort();
  const rendererPort: number = await freePort();
  const node = join(root, "node_modules", ".bin", "node");
  const env = { PORT: String(port), RENDERER_PORT: String(rendererPort), STATE_DIR: stateDir };
  const service = startProcess("service", node, [join(root, "scripts", "start.mjs")], {
    cwd: root,
    env,
    quiet: !process.env.E2E_VERBOSE,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForUrl(`${baseUrl}/health`, 150_000, service);
  const out = execFileSync(
    node,
    [
      join(root, "scripts", "key.mjs"),
      "--email",
      "e2e@example.com",
      "--permissions",
      "jobs:full,media:full",
      "--plan",
      "pro",
    ],
    {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: "utf8",
    },
  );
  const apiKey = out.trim().split("\n").at(-1)!;
  project.provide("baseUrl", baseUrl);
  project.provide("apiKey", apiKey);
  project.provide("stateDir", stateDir);
  return async () => {
    await stopProcess(service, 10_000);
    rmSync(stateDir, { recursive: true, force: true });
  };
}
