#!/usr/bin/env node
// `npm run bench [name...]`: runs every benchmark in bench/ (or the named ones) one after another on the
// project's Node 24. Each prints its own table of ratios against a baseline measured in the same run.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parseCommandLine } from "./lib/command-line.mjs";
import { ensureNodeModules, reexecOnProjectNode, root } from "./setup.mjs";

const BENCHMARKS = readdirSync(join(root, "bench"))
  .filter((f) => /\.(ts|mjs)$/.test(f) && !f.startsWith("_"))
  .sort();
const names = BENCHMARKS.map((f) => f.replace(/\.(ts|mjs)$/, ""));
const { positionals: wanted } = parseCommandLine({
  name: "bench",
  command: "npm run bench",
  args: "[name...]",
  about:
    "Runs every benchmark in bench/ (or those whose names start with the given ones) one after another; each\n" +
    "prints its table of ratios against a baseline measured in the same run (docs/benchmarks.md).",
  positionals: `benchmarks: ${names.join(", ")}`,
  check: (_, given) => {
    const unknown = given.filter((w) => !names.some((n) => n.startsWith(w)));
    return unknown.length
      ? `no benchmark named ${unknown.join(", ")} (there are ${names.join(", ")})`
      : undefined;
  },
});

ensureNodeModules();
if (!reexecOnProjectNode()) {
  const { ensurePrerequisites } = await import("./lib/system.mjs");
  ensurePrerequisites(root);
  const files = BENCHMARKS.filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)));
  let failed = 0;
  for (const file of files) {
    console.log(`\n=== bench/${file} ===`);
    const result = spawnSync(process.execPath, [join(root, "bench", file)], { cwd: root, stdio: "inherit" });
    if (result.status !== 0) failed++;
  }
  process.exit(failed ? 1 : 0);
}
