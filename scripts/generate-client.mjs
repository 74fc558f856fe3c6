#!/usr/bin/env node
// `npm run client:generate`: writes client/openapi.json (the document GET /api/v1/user-api/docs serves on
// http://127.0.0.1:8787, built as the Worker builds it: scripts/lib/openapi-document.mjs) and client/src/schema.ts
// (its types, by openapi-typescript: scripts/lib/client-types.mjs). test/worker/docs.test.ts fails when the
// committed document differs from the one the Worker serves, test/scripts/client-schema.test.ts when the committed
// types differ from a fresh generation.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseCommandLine } from "./lib/command-line.mjs";
import { ensureNodeModules, reexecOnProjectNode, root } from "./setup.mjs";

parseCommandLine({
  name: "client",
  command: "npm run client:generate",
  about:
    "Writes client/openapi.json (the document the Worker serves) and client/src/schema.ts (its types) after a change\n" +
    "of the API.",
});

ensureNodeModules();
if (!reexecOnProjectNode()) {
  const { servedDocument } = await import("./lib/openapi-document.mjs");
  const { generateTypes } = await import("./lib/client-types.mjs");
  const doc = await servedDocument(root);
  const documentPath = join(root, "client", "openapi.json");
  writeFileSync(documentPath, `${JSON.stringify(doc, null, 2)}\n`);
  writeFileSync(join(root, "client", "src", "schema.ts"), generateTypes(root, documentPath));
  console.log(`[client] ${Object.keys(doc.paths).length} paths -> client/openapi.json, client/src/schema.ts`);
}
