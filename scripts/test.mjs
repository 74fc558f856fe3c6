#!/usr/bin/env node
// `npm test`: the whole suite. Prepares the machine like `npm start` does (npm and Debian packages, local
// Chrome for Browser Rendering), then runs the renderer tests, the Worker tests (inside workerd) and the
// end-to-end tests (the service started as `npm start` starts it), after the checks of `npm run lint` (oxlint with
// import-cycle detection, domain folders layered one way, knip for unused files, exports and dependencies, Redocly on
// the OpenAPI document), types
// (Worker, renderer, benchmarks and e2e) and formatting, and prints one summary line (each check counts as one test).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureNodeModules, reexecOnProjectNode, root } from "./setup.mjs";

ensureNodeModules();
if (!reexecOnProjectNode()) {
  const { ensurePrerequisites, bin } = await import("./lib/system.mjs");
  ensurePrerequisites(root);

  const only = process.argv.slice(2);
  const suites = [
    ["renderer", "renderer/vitest.config.ts"],
    ["worker", "vitest.config.ts"],
    ["e2e", "test/e2e/vitest.config.ts"],
  ].filter(([name]) => only.length === 0 || only.includes(name));

  const out = mkdtempSync(join(tmpdir(), "mrs-test-"));
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let exitCode = 0;
  // The whole run (no suite named) also runs the static checks: main stays green only if they pass.
  if (only.length === 0) {
    for (const [name, tool, args] of [
      ["lint (oxlint: correctness, import cycles)", "oxlint", ["--deny-warnings"]],
      ["layers (domain folders import one way)", "node", ["scripts/check-layers.mjs"]],
      ["dead code (knip: unused files, exports, dependencies)", "knip", []],
      ["OpenAPI document (Redocly recommended: 0 errors, 0 warnings)", "node", ["scripts/lint-openapi.mjs"]],
      ["types (Worker)", "tsc", ["-p", "tsconfig.json", "--noEmit"]],
      ["types (renderer and contract)", "tsc", ["-p", "renderer/tsconfig.json", "--noEmit"]],
      ["types (benchmarks, e2e)", "tsc", ["-p", "tsconfig.node.json", "--noEmit"]],
      ["types (web front end)", "tsc", ["-p", "web/tsconfig.json", "--noEmit"]],
      ["formatting", "prettier", ["--check", "--log-level", "warn", "."]],
    ]) {
      const r = spawnSync(bin(root, tool), args, { cwd: root, stdio: "inherit" });
      console.log(`[check] ${name}: ${r.status === 0 ? "ok" : "FAILED"}`);
      if (r.status === 0) passed += 1;
      else {
        failed += 1;
        exitCode = 1;
      }
    }
  }
  for (const [name, config] of suites) {
    console.log(`\n=== ${name} tests (${config}) ===`);
    const report = join(out, `${name}.json`);
    const r = spawnSync(
      bin(root, "vitest"),
      ["run", "--config", config, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
      {
        cwd: root,
        stdio: "inherit",
        env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
      },
    );
    if (r.status !== 0) exitCode = 1;
    try {
      const j = JSON.parse(readFileSync(report, "utf8"));
      passed += j.numPassedTests;
      failed += j.numFailedTests;
      skipped += j.numPendingTests + (j.numTodoTests ?? 0);
      if (j.numTotalTests === 0) exitCode = 1;
    } catch {
      console.error(`[test] ${name}: no report (the run did not finish)`);
      exitCode = 1;
      failed += 1;
    }
  }
  rmSync(out, { recursive: true, force: true });
  console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(exitCode);
}
