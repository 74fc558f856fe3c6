/**
 * The n8n tier's one start for all its files: installs what is missing (the node's tooling, n8n), builds and packs
 * the node as npm would publish it, starts the service as `npm start` does (its own STATE_DIR and ports) with a key
 * from `npm run key`, and a real n8n headless on loopback with its own data folder and the packed node installed,
 * then sets up n8n's owner and a public-API key. Everything it started is stopped, and its folders removed, at the end.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { type LocalService, startLocalService } from "../../scripts/lib/processes.mjs";
import { buildAndPackNode, ensureN8n, ensureNodeTooling, type N8n, ownerApiKey, startN8n } from "./n8n.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** The service: http://127.0.0.1:<port>, and a key of a pro account. */
    baseUrl: string;
    apiKey: string;
    /** A key of another account (free plan). */
    otherApiKey: string;
    /** n8n: http://127.0.0.1:<port>, and its owner's public-API key. */
    n8nUrl: string;
    n8nApiKey: string;
    /** The node built and packed outside the checkout (its copy with dist/). */
    nodeBuildDir: string;
  }
}

export default async function setup(project: TestProject) {
  const root = process.cwd();
  const work = mkdtempSync(join(tmpdir(), "mrs-n8n-"));
  const quiet = !process.env.N8N_VERBOSE;
  let service: LocalService | undefined;
  let n8n: N8n | undefined;
  const stop = async () => {
    await Promise.all([n8n?.stop(), service?.stop()]);
    rmSync(work, { recursive: true, force: true, maxRetries: 3 });
  };
  try {
    // The installs are mostly waiting on the registry and the service's start on workerd: side by side.
    const [built] = await Promise.all([
      ensureNodeTooling(root).then(() => buildAndPackNode(root, work)),
      ensureN8n(root),
      startLocalService(root, { quiet, timeoutMs: 150_000 }).then((s) => (service = s)),
    ]);
    n8n = await startN8n(root, { userFolder: join(work, "n8n"), tarball: built.tarball, quiet });
    project.provide("nodeBuildDir", built.dir);
    project.provide("baseUrl", service!.base);
    project.provide("apiKey", await service!.key({ email: "n8n@example.com", plan: "pro" }));
    project.provide("otherApiKey", await service!.key({ email: "n8n-other@example.com", plan: "free" }));
    project.provide("n8nUrl", n8n.base);
    project.provide("n8nApiKey", await ownerApiKey(n8n.base));
  } catch (e) {
    await stop();
    throw e;
  }
  return stop;
}
