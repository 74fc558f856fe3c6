#!/usr/bin/env node
// `npm run faults`: the fault and abuse suite at full scale (FAULTS_SCALE=full): the Worker's faults tests
// (test/worker/faults: fuzzing, cross-account probes, D1 failures, parallel creates, SSRF corpus, hostile html),
// the renderer's (renderer/test/faults: deadlines, hostile html in video, what one job may take: GL helpers, memory,
// slow shaders), the whole service's (test/e2e/faults: killed, frozen and unreachable renderers, chunks) and
// the sealed local browser (test/scripts). `npm test` runs the same tests in their short form.
// Prints every `[faults] name: value` figure the tests report, once more at the end as a summary.
import { spawnSync } from "node:child_process";
import { stripVTControlCharacters } from "node:util";
import { parseCommandLine } from "./lib/command-line.mjs";
import { ensureNodeModules, reexecOnProjectNode, root } from "./setup.mjs";

parseCommandLine({
  name: "faults",
  command: "npm run faults",
  about:
    "The fault and abuse suite at full scale (FAULTS_SCALE=full): the Worker's, the renderer's and the whole\n" +
    "service's fault tests and the sealed local browser; `npm test` runs them in their short form. Prints every\n" +
    "figure the tests report, and a summary of them at the end.",
  env: { FIXTURES_DIR: "the shared media fixtures (default: ../shared/fixtures beside the checkout)" },
});

ensureNodeModules();
if (!reexecOnProjectNode()) {
  const { ensurePrerequisites, bin } = await import("./lib/system.mjs");
  ensurePrerequisites(root);
  const runs = [
    ["worker", "vitest.config.ts", ["test/worker/faults"]],
    ["renderer", "renderer/vitest.config.ts", ["renderer/test/faults", "test/scripts"]],
    ["service", "test/e2e/vitest.config.ts", ["test/e2e/faults"]],
  ];
  const figures = [];
  let failed = false;
  for (const [name, config, paths] of runs) {
    console.log(`\n=== faults: ${name} (${paths.join(", ")}) ===`);
    const result = spawnSync(bin(root, "vitest"), ["run", "--config", config, ...paths], {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      env: {
        ...process.env,
        FAULTS_SCALE: "full",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
        WRANGLER_SEND_METRICS: "false",
      },
    });
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    // vitest may put colour codes before a console line: strip them, or those figures miss the summary.
    const plain = stripVTControlCharacters(result.stdout);
    figures.push(...[...plain.matchAll(/^\[faults\] .*$/gm)].map((m) => `${name}: ${m[0].slice(9)}`));
    if (result.status !== 0) failed = true;
  }
  console.log(`\n=== fault suite figures (${new Date().toISOString()}) ===`);
  for (const line of figures) console.log(line);
  console.log(failed ? "\nfaults: FAILED" : "\nfaults: all passed");
  process.exit(failed ? 1 : 0);
}
