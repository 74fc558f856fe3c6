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
// Four lanes run side by side: the unit tier and the Worker suite's `worker` project; the renderer suite's `renderer`
// project; the end-to-end suite, whose fault files spend most of their time waiting on leases and outages while the
// other lanes use the two cores, then the renderer suite's `renderer-late` project (its fault and transcription
// files); the checks, one after another (half a minute in all), then the Worker suite's `worker-render`
// project and the scripts' tests. The run is CPU-bound, so the lanes are laid out to end together.
// Each task's output is held and printed whole when it ends, so the lanes' logs do not interleave.
//
// No test may write into the checkout (the lanes share it): the run ends with a check that it is as it was before the
// lanes started, every file and folder outside .git and node_modules. `--cpus N` runs everything on N cores (taskset)
// and `--load N` beside N busy loops: the same suites on a machine as slow as CI may be (docs/testing.md).
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  createWriteStream,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { parseCommandLine } from "./lib/command-line.mjs";
import { ensureNodeModules, reexecOnProjectNode, root } from "./setup.mjs";

// Each suite's config, and its project where a config has two: the Worker suite's and the renderer suite's projects
// run as two tasks each, in different lanes (`npm test worker` names both, as `npm test renderer` does).
const SUITES = {
  unit: ["vitest.unit.config.ts"],
  renderer: ["renderer/vitest.config.ts", "renderer"],
  "renderer-late": ["renderer/vitest.config.ts", "renderer-late"],
  worker: ["vitest.config.ts", "worker"],
  "worker-render": ["vitest.config.ts", "worker-render"],
  e2e: ["test/e2e/vitest.config.ts"],
  scripts: ["test/scripts/vitest.config.ts"],
  // Only when named (`npm test n8n`, CI's second step): it installs n8n (minutes, gigabytes; docs/testing.md).
  n8n: ["test/n8n/vitest.config.ts"],
};
const ON_REQUEST = new Set(["n8n"]);
/** A suite's second project, run when its first is named. */
const SECOND_PROJECT_OF = { "worker-render": "worker", "renderer-late": "renderer" };
const SUITE_NAMES = Object.keys(SUITES);
const cores = availableParallelism();
const count = (name, max) => (values) => {
  const value = Number(values[name]);
  return values[name] === undefined || (Number.isInteger(value) && value >= 1 && value <= max)
    ? undefined
    : `--${name} takes a whole number from 1 to ${max}`;
};
const { values: options, positionals: only } = parseCommandLine({
  name: "test",
  command: "npm test",
  args: "[suite...] [--cpus N] [--load N]",
  about:
    "Every test: the static checks (lint, layers, knip, OpenAPI, types, formatting) beside the unit, renderer,\n" +
    "Worker, end-to-end and scripts suites in four lanes, then one line: tests: N passed, N failed, N skipped.\n" +
    "Named suites run alone, without the checks (CONTRIBUTING.md, docs/testing.md).",
  positionals: `suites: ${SUITE_NAMES.join(", ")} (worker = both Worker projects, renderer both renderer projects; n8n only when named)`,
  options: {
    cpus: {
      type: "string",
      value: "N",
      help: `run everything on N of this machine's ${cores} cores (taskset)`,
    },
    load: {
      type: "string",
      value: "N",
      help: "run N busy loops beside the tests, each taking a core while it can",
    },
  },
  check: (values, given) => {
    const unknown = given.filter((s) => !SUITE_NAMES.includes(s));
    if (unknown.length) return `no suite named ${unknown.join(", ")} (there are ${SUITE_NAMES.join(", ")})`;
    return count("cpus", cores)(values) ?? count("load", 16)(values);
  },
});

// --cpus: the whole run again under taskset, every process it starts held to the first N cores.
if (options.cpus && process.env.MRS_TEST_CPUS !== options.cpus) {
  const result = spawnSync(
    "taskset",
    ["--cpu-list", `0-${Number(options.cpus) - 1}`, process.execPath, ...process.argv.slice(1)],
    { stdio: "inherit", env: { ...process.env, MRS_TEST_CPUS: options.cpus } },
  );
  process.exit(result.status ?? 1);
}

ensureNodeModules();
if (!reexecOnProjectNode()) {
  const { ensurePrerequisites, bin } = await import("./lib/system.mjs");
  const { ensureDevVars } = await import("./lib/secrets.mjs");
  ensurePrerequisites(root);
  // What the lanes would otherwise make in the checkout while the others read it: the local secrets (npm start makes
  // them; the Worker suite's pool reads them) and the client generator's own install (npm ci in client/generator,
  // ~3 s on a fresh clone: the scripts' tests use it, and the deploy test reads the checkout's listing). The install
  // runs while the lanes start; the scripts' tests wait for it.
  ensureDevVars(root);
  const generatorReady = new Promise((resolve) =>
    spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        "(await import(process.argv[1])).ensureGenerator(process.argv[2])",
        pathToFileURL(join(root, "scripts", "lib", "client-types.mjs")).href,
        root,
      ],
      { stdio: "inherit" },
    ).on("close", resolve),
  );

  /** Every file and folder of the checkout outside .git and node_modules, with its size and modification time. */
  const checkoutFiles = () => {
    const files = new Map();
    const walk = (dir) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.name === ".git" || entry.name === "node_modules") continue;
        const path = join(dir, entry.name);
        const stats = lstatSync(path);
        files.set(relative(root, path), entry.isDirectory() ? "dir" : `${stats.size} ${stats.mtimeMs}`);
        if (entry.isDirectory()) walk(path);
      }
    };
    walk(root);
    return files;
  };
  const checkoutBefore = checkoutFiles();

  // --load: busy loops at the tests' own priority for the whole run (a shared machine, another engineer's run).
  const loops = Array.from({ length: Number(options.load ?? 0) }, () =>
    spawn(process.execPath, ["-e", "for (;;);"], { stdio: "ignore" }),
  );
  const stopLoops = () => loops.forEach((loop) => loop.kill("SIGKILL"));
  process.on("exit", stopLoops);

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

  const wanted = (name) =>
    only.includes(name) ||
    (only.length === 0 && !ON_REQUEST.has(name)) ||
    only.includes(SECOND_PROJECT_OF[name]);
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
    suites("e2e", "renderer-late"),
    [
      ...checks,
      ...suites("worker-render"),
      ...suites("scripts").map((task) => async () => {
        await generatorReady;
        await task();
      }),
    ],
    suites("n8n"),
  ];
  await Promise.all(
    lanes.map(async (lane) => {
      for (const task of lane) await task();
    }),
  );
  stopLoops();
  await generatorReady;
  rmSync(out, { recursive: true, force: true, maxRetries: 5 });

  // The lanes share the checkout: a test that wrote into it (rather than into its own temporary folder) may have
  // changed what another lane read, and leaves the clone dirty.
  const checkoutAfter = checkoutFiles();
  const changed = [
    ...[...checkoutAfter].filter(([path, was]) => checkoutBefore.get(path) !== was).map(([path]) => path),
    ...[...checkoutBefore.keys()]
      .filter((path) => !checkoutAfter.has(path))
      .map((path) => `${path} (removed)`),
  ];
  if (changed.length === 0) totals.passed += 1;
  else {
    totals.failed += 1;
    exitCode = 1;
    console.log(`\n--- check: the checkout ---\nwritten during the run (a test must use its own folders):`);
    for (const path of changed.slice(0, 50)) console.log(`  ${path}`);
  }
  console.log(`[check] the checkout as it was before the run: ${changed.length === 0 ? "ok" : "FAILED"}`);
  console.log(`\n[test] wall ${seconds(started)}: ${timings.join(", ")}`);
  console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(exitCode);
}
