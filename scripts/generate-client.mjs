#!/usr/bin/env node
// `npm run client:generate`: writes client/openapi.json (the document GET /api/v1/user-api/docs serves, without
// its `servers`) and client/src/schema.ts (its types, scripts/lib/openapi-to-ts.mjs) from the service itself,
// started as `npm start` starts it on free ports with a throw-away state. test/worker/docs.test.ts fails when the
// committed document differs from the one the Worker serves, and test/scripts/client-schema.test.ts when the
// committed types differ from the document's.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureNodeModules, reexecOnProjectNode, root } from "./setup.mjs";

ensureNodeModules();
if (!reexecOnProjectNode()) {
  const { freePort, startProcess, stopProcess, waitForUrl } = await import("./lib/processes.mjs");
  const { openApiToTs } = await import("./lib/openapi-to-ts.mjs");
  const stateDir = mkdtempSync(join(tmpdir(), "mrs-client-"));
  const port = await freePort();
  const env = { PORT: String(port), RENDERER_PORT: String(await freePort()), STATE_DIR: stateDir };
  const service = startProcess("service", process.execPath, [join(root, "scripts", "start.mjs")], {
    cwd: root,
    env,
    quiet: true,
  });
  try {
    await waitForUrl(`http://127.0.0.1:${port}/health`, 150_000, service);
    const doc = await (await fetch(`http://127.0.0.1:${port}/api/v1/user-api/docs`)).json();
    delete doc.servers;
    writeFileSync(join(root, "client", "openapi.json"), `${JSON.stringify(doc, null, 2)}\n`);
    writeFileSync(join(root, "client", "src", "schema.ts"), openApiToTs(doc));
    console.log(
      `[client] ${Object.keys(doc.paths).length} paths -> client/openapi.json, client/src/schema.ts`,
    );
  } finally {
    await stopProcess(service, 10_000);
    rmSync(stateDir, { recursive: true, force: true });
  }
}
