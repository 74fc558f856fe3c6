// System prerequisites of the service: Debian packages (ffmpeg, Chromium, fonts) and the local Chrome that
// miniflare's Browser Rendering wants. Plain Node (runs on the machine's Node 20 before npm install too).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync, chmodSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** Debian packages the renderer and local Browser Rendering need, with the binary that proves each. */
export const APT_PACKAGES = [
  ["ffmpeg", "/usr/bin/ffmpeg"],
  ["chromium", "/usr/bin/chromium"],
  ["chromium-headless-shell", "/usr/bin/chromium-headless-shell"],
  ["fonts-dejavu-core", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"],
  ["fonts-liberation2", "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf"],
  ["fonts-noto-color-emoji", "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"],
];

const log = (msg) => console.log(`[setup] ${msg}`);

/** Installs missing Debian packages when root; otherwise says exactly what to run and exits. */
export const ensureSystemPackages = () => {
  const missing = APT_PACKAGES.filter(([, path]) => !existsSync(path)).map(([name]) => name);
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(" ")}`;
  if (!isRoot) {
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
    const r = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (r.status !== 0) {
      console.error(`[setup] apt-get ${args[0]} failed (exit ${r.status}).`);
      process.exit(1);
    }
  }
};

/** Debian's Chromium binary itself (its /usr/bin wrapper script adds nothing we need). */
const chromiumBinary = () =>
  existsSync("/usr/lib/chromium/chromium") ? "/usr/lib/chromium/chromium" : "/usr/bin/chromium";

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
 * Miniflare's local Browser Rendering downloads a pinned Chrome into the wrangler cache; offline that fails and
 * there is no setting for an executable path. Put a launcher at that path that runs Debian's Chromium instead.
 */
export const ensureLocalChrome = (root) => {
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), ".wrangler", "chrome");
  for (const version of miniflareBrowserVersions(root)) {
    const dir = join(cache, `linux-${version}`, "chrome-linux64");
    const launcher = join(dir, "chrome");
    // setpriv --pdeathsig: the browser dies with the process that launched it (wrangler dev, a test run),
    // so a stopped service never leaves a Chromium spinning behind it.
    const script = `#!/bin/sh\n# Written by the media render service's setup: use Debian's Chromium for local Browser Rendering.\nexec setpriv --pdeathsig KILL ${chromiumBinary()} --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking --disable-component-update --disable-sync --no-first-run "$@"\n`;
    if (existsSync(launcher) && readFileSync(launcher, "utf8") === script) continue;
    mkdirSync(dir, { recursive: true });
    writeFileSync(launcher, script);
    chmodSync(launcher, 0o755);
    log(`local Browser Rendering ${version} -> ${chromiumBinary()}`);
  }
};

/** Runs a project binary from node_modules/.bin (npm scripts put it on PATH; direct runs may not). */
export const bin = (root, name) => join(root, "node_modules", ".bin", name);

export const run = (root, name, args, opts = {}) =>
  execFileSync(bin(root, name), args, { cwd: root, stdio: "inherit", ...opts });
