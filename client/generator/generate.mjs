#!/usr/bin/env node
// Prints the TypeScript types of an OpenAPI document (openapi-typescript): `node generate.mjs <openapi.json>`.
// It runs from this folder's own install (package-lock.json here), because openapi-typescript needs TypeScript 5's
// compiler API and the project builds with TypeScript 7. scripts/lib/client-types.mjs installs and runs it.
import { readFileSync } from "node:fs";
import openapiTS, { astToString } from "openapi-typescript";

const [path] = process.argv.slice(2);
if (!path) {
  console.error("usage: node generate.mjs <openapi.json>");
  process.exit(2);
}
const ast = await openapiTS(JSON.parse(readFileSync(path, "utf8")), {
  // `export type Job = components["schemas"]["Job"]`, beside the paths and operations.
  rootTypes: true,
  rootTypesNoSchemaPrefix: true,
  // A property with a default may be left out of a request (the config's `format`, a query's `limit`).
  defaultNonNullable: false,
  silent: true,
});
process.stdout.write(
  "// Generated from client/openapi.json by openapi-typescript (npm run client:generate). Do not edit.\n\n" +
    astToString(ast),
);
