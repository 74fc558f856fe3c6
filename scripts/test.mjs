#!/usr/bin/env node
// `npm test`: the whole suite. Prepares the machine like `npm start` does (npm and Debian packages, local
// Chrome for Browser Rendering), then runs, in tiers: the unit tests (no process, browser or workerd), the renderer
// tests, the Worker tests (inside workerd), the end-to-end tests (the service started as `npm start` starts it) and
// the scripts' tests (the project's own tooling run as a user runs it), with the checks of `npm run lint` (oxlint
// with import-cycle detection, domain folders layered one way, knip for
// unused files, exports and dependencies, Redocly on the OpenAPI document), types (Worker, renderer, benchmarks and
// e2e) and formatting running beside them rather than before them. It prints one summary line (each check counts as
// one test). `node scripts/test.mjs worker e2e` runs only the named suites (no checks). The n8n tier runs only when
// named (`npm test n8n`: it installs n8n, minutes and gigabytes the first time; .ci/run runs it after `npm test`).
//
// Four lanes run side by side: the unit tier and the Worker suite's `worker` project; the renderer suite; the
// end-to-end suite, whose fault files spend most of their time waiting on leases and outages while the other lanes use
// the two cores; the checks, one after another (half a minute in all), then the Worker suite's `worker-render`
// project and the scripts' tests. The run is CPU-bound, so the lanes are laid out to end together.
// Each task's output is held and printed whole when it ends, so the lanes' logs do not interleave.
import { spawn } from "node:child_process";
import { chmodSync, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureNodeModules, reexecOnProjectNode, root } from "./setup.mjs";

ensureNodeModules();
if (!reexecOnProjectNode()) {
  const { ensurePrerequisites, bin } = await import("./lib/system.mjs");
  ensurePrerequisites(root);

  const only = process.argv.slice(2);
  const out = mkdtempSync(join(tmpdir(), "mrs-test-"));
  // Every task's temporary files (browser profiles, decoded frames, renders, local state) go under the run's own
  // folder, removed at the end: a run leaves nothing in the machine's temporary folder. It is made like /tmp, since
  // the browsers run as an unprivileged user (render-browser) and make their folders in it.
  const tmp = join(out, "tmp");
  mkdirSync(tmp);
  chmodSync(out, 0o711);
  chmodSync(tmp, 0o1777);
  const started = Date.now();
  const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
  const totals = { passed: 0, failed: 0, skipped: 0 };
  let exitCode = 0;
  const timings = [];

  /** Runs `tool args`, its output held in a file and printed when it ends; resolves to its exit status. */
  const runHeld = (label, tool, args, env = process.env) =>
    new Promise((resolve) => {
      const log = join(out, `${label.replace(/\W+/g, "-")}.log`);
      const file = createWriteStream(log);
      const t0 = Date.now();
      const child = spawn(bin(root, tool), args, {
        cwd: root,
        env: { ...env, TMPDIR: tmp },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.stdout.pipe(file, { end: false });
      child.stderr.pipe(file, { end: false });
      const finish = (status) =>
        file.end(() => {
          const text = readFileSync(log, "utf8");
          if (text.trim()) process.stdout.write(`\n--- ${label} ---\n${text}`);
          timings.push(`${label} ${seconds(t0)}`);
          resolve(status);
        });
      child.on("error", (e) => {
        file.write(`${e.message}\n`);
        finish(1);
      });
      child.on("close", (code) => finish(code ?? 1));
    });

  /** A static check counts as one test: passed when its tool exits 0. */
  const check = (name, tool, args) => async () => {
    const status = await runHeld(`check: ${name}`, tool, args);
    console.log(`[check] ${name}: ${status === 0 ? "ok" : "FAILED"}`);
    if (status === 0) totals.passed += 1;
    else {
      totals.failed += 1;
      exitCode = 1;
    }
  };

  /** A vitest suite: its counts come from the JSON report; a suite that wrote none or ran no test fails. */
  const suite = (name, config, project) => async () => {
    const report = join(out, `${name}.json`);
    const status = await runHeld(
      `${name} tests (${config}${project ? ` --project ${project}` : ""})`,
      "vitest",
      [
        ...["run", "--config", config, ...(project ? ["--project", project] : [])],
        ...["--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
      ],
      { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
    );
    if (status !== 0) exitCode = 1;
    try {
      const j = JSON.parse(readFileSync(report, "utf8"));
      totals.passed += j.numPassedTests;
      totals.failed += j.numFailedTests;
      totals.skipped += j.numPendingTests + (j.numTodoTests ?? 0);
      if (j.numTotalTests === 0) exitCode = 1;
      console.log(`[test] ${name}: ${j.numPassedTests} passed, ${j.numFailedTests} failed`);
    } catch {
      console.error(`[test] ${name}: no report (the run did not finish)`);
      exitCode = 1;
      totals.failed += 1;
    }
  };

  // Each suite's config, and its project where a config has two: the Worker suite's projects run as two tasks, in
  // different lanes (`npm test worker` names both).
  const SUITES = {
    unit: ["vitest.unit.config.ts"],
    renderer: ["renderer/vitest.config.ts"],
    worker: ["vitest.config.ts", "worker"],
    "worker-render": ["vitest.config.ts", "worker-render"],
    e2e: ["test/e2e/vitest.config.ts"],
    scripts: ["test/scripts/vitest.config.ts"],
    // Only when named (`npm test n8n`, CI's second step): it installs n8n (minutes, gigabytes; docs/testing.md).
    n8n: ["test/n8n/vitest.config.ts"],
  };
  const ON_REQUEST = new Set(["n8n"]);
  const wanted = (name) =>
    only.includes(name) ||
    (only.length === 0 && !ON_REQUEST.has(name)) ||
    (name === "worker-render" && only.includes("worker"));
  const suites = (...names) => names.filter(wanted).map((name) => suite(name, ...SUITES[name]));
  // The whole run (no suite named) also runs the static checks: main stays green only if they pass.
  const checks =
    only.length > 0
      ? []
      : [
          check("lint (oxlint: correctness, import cycles)", "oxlint", ["--deny-warnings"]),
          check("layers (domain folders import one way)", "node", ["scripts/check-layers.mjs"]),
          check("dead code (knip: unused files, exports, dependencies)", "knip", []),
          check("OpenAPI document (Redocly recommended: 0 errors, 0 warnings)", "node", [
            "scripts/lint-openapi.mjs",
          ]),
          check("types (Worker)", "tsc", ["-p", "tsconfig.json", "--noEmit"]),
          check("types (renderer and contract)", "tsc", ["-p", "renderer/tsconfig.json", "--noEmit"]),
          check("types (benchmarks, e2e)", "tsc", ["-p", "tsconfig.node.json", "--noEmit"]),
          check("types (web front end)", "tsc", ["-p", "web/tsconfig.json", "--noEmit"]),
          check("formatting (oxfmt)", "oxfmt", ["--check"]),
        ];
  const lanes = [
    suites("unit", "worker"),
    suites("renderer"),
    suites("e2e"),
    [...checks, ...suites("worker-render", "scripts")],
    suites("n8n"),
  ];
  await Promise.all(
    lanes.map(async (lane) => {
      for (const task of lane) await task();
    }),
  );
  rmSync(out, { recursive: true, force: true, maxRetries: 5 });
  console.log(`\n[test] wall ${seconds(started)}: ${timings.join(", ")}`);
  console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(exitCode);
}
