#!/usr/bin/env node
// `npm run client:generate`: writes client/openapi.json (the document GET /api/v1/user-api/docs serves, without
// its `servers`) and client/src/schema.ts (its types, scripts/lib/openapi-to-ts.mjs) from the service itself,
// started as `npm start` starts it on free ports with a throw-away state. test/worker/docs.test.ts fails when the
// committed document differs from the one the Worker serves, and test/scripts/client-schema.test.ts when the
// committed types differ from the document's.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureNodeModules, reexecOnProjectNode, root } from "./setup.mjs";

ensureNodeModules();
if (!reexecOnProjectNode()) {
  const { startLocalService } = await import("./lib/processes.mjs");
  const { openApiToTs } = await import("./lib/openapi-to-ts.mjs");
  const local = await startLocalService(root, { timeoutMs: 150_000 });
  try {
    const doc = await (await fetch(`${local.base}/api/v1/user-api/docs`)).json();
    delete doc.servers;
    writeFileSync(join(root, "client", "openapi.json"), `${JSON.stringify(doc, null, 2)}\n`);
    writeFileSync(join(root, "client", "src", "schema.ts"), openApiToTs(doc));
    console.log(
      `[client] ${Object.keys(doc.paths).length} paths -> client/openapi.json, client/src/schema.ts`,
    );
  } finally {
    await local.stop();
  }
}
