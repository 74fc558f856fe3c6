#!/usr/bin/env node
// The OpenAPI check of `npm run lint` (and `npm test`): the document the Worker serves (built as the Worker builds
// it, scripts/lib/openapi-document.mjs) written to a temporary file and linted by Redocly with its recommended
// rules, warnings counted as errors (`recommended-strict`): 0 errors and 0 warnings or it fails.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureNodeModules, reexecOnProjectNode, root } from "./setup.mjs";

ensureNodeModules();
if (!reexecOnProjectNode()) {
  const { servedDocument } = await import("./lib/openapi-document.mjs");
  const { bin } = await import("./lib/system.mjs");
  const dir = mkdtempSync(join(tmpdir(), "mrs-openapi-lint-"));
  try {
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(await servedDocument(root), null, 2));
    const result = spawnSync(bin(root, "redocly"), ["lint", "--extends", "recommended-strict", file], {
      cwd: dir,
      stdio: "inherit",
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    });
    process.exitCode = result.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
