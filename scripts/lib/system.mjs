// System prerequisites of the service: Debian packages (ffmpeg, Chromium, fonts, pocketsphinx: the table of
// apt-packages.mjs), the unprivileged user every Chromium runs as, and the local Chrome that miniflare's Browser
// Rendering wants (local-chrome.mjs). Plain Node (runs on the machine's Node 20 before npm install too).
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { APT_PACKAGES } from "./apt-packages.mjs";
import { BROWSER_USER, chromiumBinary, isRoot, localChromeLauncher } from "./local-chrome.mjs";

const log = (msg) => console.log(`[setup] ${msg}`);

/** Installs missing Debian packages when root; otherwise says exactly what to run and exits. */
const ensureSystemPackages = () => {
  const missing = APT_PACKAGES.filter(([, path]) => !existsSync(path)).map(([name]) => name);
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(" ")}`;
  if (!isRoot()) {
    console.error(
      `[setup] Missing system packages: ${missing.join(", ")}.\n[setup] Install them with:\n  sudo sh -c '${command}'`,
    );
    process.exit(1);
  }
  log(`installing ${missing.join(", ")} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "--no-install-recommends", ...missing],
  ]) {
    const result = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (result.status !== 0) {
      console.error(`[setup] apt-get ${args[0]} failed (exit ${result.status}).`);
      process.exit(1);
    }
  }
};

/** Every Chrome version a local miniflare copy expects (wrangler's and the test plugin's may differ). */
const miniflareBrowserVersions = (root) => {
  const versions = new Set();
  const walk = (dir, depth) => {
    if (depth > 6 || !existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      if (entry.name === "miniflare") {
        const file = join(path, "dist", "src", "index.js");
        if (existsSync(file)) {
          const match = readFileSync(file, "utf8").match(/BROWSER_VERSION = "([\d.]+)"/);
          if (match) versions.add(match[1]);
        }
      } else if (entry.name === "node_modules" || entry.name.startsWith("@") || depth > 0) {
        walk(path, depth + 1);
      }
    }
  };
  walk(join(root, "node_modules"), 0);
  return [...versions];
};

/**
 * Creates the browser user when root and it is missing: a system user with its own group, no home, no shell, no
 * password. The image creates the same (renderer/Dockerfile).
 */
const ensureBrowserUser = () => {
  if (!isRoot() || spawnSync("id", ["-u", BROWSER_USER], { stdio: "ignore" }).status === 0) return;
  log(`creating the system user ${BROWSER_USER} (Chromium runs as it)`);
  const result = spawnSync(
    "useradd",
    [
      "--system",
      "--user-group",
      "--no-create-home",
      "--home-dir",
      "/nonexistent",
      "--shell",
      "/usr/sbin/nologin",
      BROWSER_USER,
    ],
    { stdio: "inherit" },
  );
  if (result.status !== 0) {
    console.error(`[setup] useradd ${BROWSER_USER} failed (exit ${result.status}).`);
    process.exit(1);
  }
};

/**
 * Local state the browser user must not read (it holds every account's files and the local D1): owner only. The
 * secrets file (.dev.vars) is written 0600 by secrets.mjs.
 */
const ensurePrivateState = (root) => {
  const state = join(root, ".wrangler");
  mkdirSync(state, { recursive: true });
  chmodSync(state, 0o700);
};

/** Puts local-chrome.mjs's launcher where each local miniflare copy looks for its Chrome, when it differs. */
const ensureLocalChrome = (root) => {
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), ".wrangler", "chrome");
  const script = localChromeLauncher();
  for (const version of miniflareBrowserVersions(root)) {
    const dir = join(cache, `linux-${version}`, "chrome-linux64");
    const launcher = join(dir, "chrome");
    if (existsSync(launcher) && readFileSync(launcher, "utf8") === script) continue;
    mkdirSync(dir, { recursive: true });
    writeFileSync(launcher, script);
    chmodSync(launcher, 0o755);
    const who = isRoot() ? `as ${BROWSER_USER}` : "as this user";
    const sandbox = script.includes("--no-sandbox") ? "no sandbox: no user namespaces" : "sandboxed";
    log(`local Browser Rendering ${version} -> ${chromiumBinary()} (sealed, ${who}, ${sandbox})`);
  }
};

/** Runs a project binary from node_modules/.bin (npm scripts put it on PATH; direct runs may not). */
export const bin = (root, name) => join(root, "node_modules", ".bin", name);

/**
 * Builds the renderer's native helpers (renderer/native/*.c) into renderer/native/build/ when a binary is
 * missing or older than a source or the build script (~0.3 s). The build script is the one copy of the
 * compile line; the Dockerfile runs it too.
 */
const ensureNativeHelpers = (root) => {
  const dir = join(root, "renderer", "native");
  const script = join(dir, "build.sh");
  const sources = readdirSync(dir).filter((f) => f.endsWith(".c"));
  const newest = Math.max(...[script, ...sources.map((f) => join(dir, f))].map((f) => statSync(f).mtimeMs));
  // Each source x.c is built into build/x.
  const binaries = sources.map((f) => join(dir, "build", f.slice(0, -2)));
  if (binaries.every((b) => existsSync(b) && statSync(b).mtimeMs >= newest)) return;
  log(`building ${binaries.join(", ")}`);
  const result = spawnSync("sh", [script], { stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`[setup] building the native helpers failed (exit ${result.status}).`);
    process.exit(1);
  }
};

/**
 * What every entry point (start, test, bench, faults) needs first: apt packages, the browser user, private local
 * state, the local Chrome, the helpers.
 */
export const ensurePrerequisites = (root) => {
  ensureSystemPackages();
  ensureBrowserUser();
  ensurePrivateState(root);
  ensureLocalChrome(root);
  ensureNativeHelpers(root);
};
