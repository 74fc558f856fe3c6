/**
 * client/src/schema.ts is what openapi-typescript (run from its own install, scripts/lib/client-types.mjs) makes of
 * the committed client/openapi.json, which test/worker/docs.test.ts holds to the document the Worker serves.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateTypes } from "../../scripts/lib/client-types.mjs";

const root = join(import.meta.dirname, "..", "..");

describe("client/src/schema.ts", () => {
  it("is a fresh generation from client/openapi.json (else run npm run client:generate)", () => {
    const fresh = generateTypes(root, join(root, "client", "openapi.json"));
    expect(readFileSync(join(root, "client", "src", "schema.ts"), "utf8")).toBe(fresh);
  });

  it("types every operation by its operationId and every named schema at the top level", () => {
    const types = readFileSync(join(root, "client", "src", "schema.ts"), "utf8");
    for (const id of [
      "createJob",
      "listJobs",
      "getJob",
      "cancelJob",
      "validateJob",
      "uploadFile",
      "downloadFile",
    ])
      expect(types).toContain(`    ${id}: {`);
    for (const name of ["Job", "JobCreated", "JobValidation", "JobEvent", "ErrorBody", "UploadedFile"])
      expect(types).toContain(`export type ${name} = components['schemas']['${name}'];`);
  });
});
