#!/usr/bin/env node
// Prepares a fresh clone: npm packages (with Node 24 from npm), Debian packages, local Chrome for Browser
// Rendering, local secrets and the local D1 schema. Safe to run again; `npm start` runs it first.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

// Project binaries first on PATH, as npm scripts do, so tools whose shebang says `node` (wrangler, vitest) get the
// project's Node 24 even when a script is started directly (`node scripts/start.mjs`) rather than through npm.
const projectBin = join(root, "node_modules", ".bin");
if (!(process.env.PATH ?? "").split(delimiter).includes(projectBin)) {
  process.env.PATH = `${projectBin}${delimiter}${process.env.PATH ?? ""}`;
}

/**
 * Installs the npm packages when node_modules is missing or stale: `npm ci` from the committed lock file (exactly
 * what it pins, and the lock is never rewritten, so a fresh clone stays clean), `npm install` only where there is no
 * lock. The lock lists every platform's optional binaries (workerd, oxc...), so `npm ci` works on each platform
 * the README supports. Then make sure we run on the project's Node 24.
 */
export const ensureNodeModules = () => {
  const marker = join(root, "node_modules", ".bin", "node");
  if (!existsSync(marker) || !existsSync(join(root, "node_modules", "wrangler"))) {
    const command = existsSync(join(root, "package-lock.json")) ? "ci" : "install";
    console.log(`[setup] installing npm packages (npm ${command})`);
    execFileSync("npm", [command, "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
  }
  // npm runs this as postinstall; run it again so a checkout pulled over an existing node_modules gets the
  // render assets (fonts, html libraries) it expects. Idempotent, ~0.1 s.
  execFileSync(process.execPath, [join(root, "scripts", "build-render-assets.mjs")], {
    cwd: root,
    stdio: "ignore",
  });
  // The web front end (web/ built by Vite into static/web, served by the Worker): rebuilt only when web/ or the
  // lock file changed (~2 s), so a fresh clone's npm start and npm test serve the current console.
  execFileSync(process.execPath, [join(root, "scripts", "build-web.mjs")], { cwd: root, stdio: "inherit" });
};

/** Re-runs the current script on node_modules/.bin/node when we were started by an older Node. */
export const reexecOnProjectNode = () => {
  const major = Number(process.versions.node.split(".")[0]);
  if (major >= 22) return false;
  execFileSync(join(root, "node_modules", ".bin", "node"), process.argv.slice(1), { stdio: "inherit" });
  return true;
};

/**
 * Prerequisites, local secrets and the local D1 schema. `migrate: false` leaves the schema to the caller, which opens
 * the local D1 itself (scripts/key.mjs: one workerd for both).
 */
export const setup = async ({ persistTo, migrate = true } = {}) => {
  const { ensurePrerequisites } = await import("./lib/system.mjs");
  const { ensureDevVars } = await import("./lib/secrets.mjs");
  ensurePrerequisites(root);
  const vars = ensureDevVars(root);
  if (migrate) {
    const { applyMigrations, openLocalD1 } = await import("./lib/local-d1.mjs");
    const d1 = await openLocalD1(root, persistTo);
    try {
      await applyMigrations(d1.DB, d1.migrationsDir);
    } finally {
      await d1.dispose();
    }
  }
  return vars;
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { parseCommandLine } = await import("./lib/command-line.mjs");
  parseCommandLine({
    name: "setup",
    command: "npm run setup",
    about:
      "Prepares a fresh clone: npm packages (with Node 24 from npm), Debian packages, local Chrome for Browser\n" +
      "Rendering, local secrets (.dev.vars) and the local D1 schema. Safe to run again; npm start runs it first.",
    env: { STATE_DIR: "the local state to migrate (default .wrangler/state)" },
  });
  ensureNodeModules();
  if (!reexecOnProjectNode()) {
    await setup({ persistTo: process.env.STATE_DIR });
    console.log("[setup] done");
  }
}
