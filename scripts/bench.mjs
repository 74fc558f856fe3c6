#!/usr/bin/env node
// `npm run bench [name...]`: runs every benchmark in bench/ (or the named ones) one after another on the
// project's Node 24. Each prints its own table of ratios against a baseline measured in the same run.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ensureNodeModules, reexecOnProjectNode, root } from "./setup.mjs";

ensureNodeModules();
if (!reexecOnProjectNode()) {
  const { ensurePrerequisites } = await import("./lib/system.mjs");
  ensurePrerequisites(root);
  const wanted = process.argv.slice(2);
  const files = readdirSync(join(root, "bench"))
    .filter((f) => /\.(ts|mjs)$/.test(f) && !f.startsWith("_"))
    .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
    .sort();
  let failed = 0;
  for (const file of files) {
    console.log(`\n=== bench/${file} ===`);
    const r = spawnSync(process.execPath, [join(root, "bench", file)], { cwd: root, stdio: "inherit" });
    if (r.status !== 0) failed++;
  }
  process.exit(failed ? 1 : 0);
}
