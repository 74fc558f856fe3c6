// System prerequisites of the service: Debian packages (ffmpeg, Chromium, fonts, pocketsphinx), the unprivileged user
// every Chromium runs as, and the local Chrome that miniflare's Browser Rendering wants. Plain Node (runs on the
// machine's Node 20 before npm install too).
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  chmodSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/**
 * How every Chromium that shows users' pages runs: as this user when started by root, and without a GPU where it
 * needs none. The renderer reads the same file (renderer/src/video/raster/).
 */
const ISOLATION = JSON.parse(
  readFileSync(new URL("../../renderer/src/video/raster/chromium-isolation.json", import.meta.url), "utf8"),
);
/** setpriv's flags when the renderer runs a program as another user (renderer/src/lib/run-as.ts reads them too). */
const SETPRIV_FLAGS = JSON.parse(
  readFileSync(new URL("../../renderer/src/lib/setpriv.json", import.meta.url), "utf8"),
);
/** The unprivileged user every Chromium runs as when started by root. */
export const BROWSER_USER = ISOLATION.user;

/**
 * Debian packages of the service, each with a file that proves it is installed and where it is needed:
 * `runtime` (the renderer, run locally and in its image), `build` (building the native helper, locally and in the
 * image's build stage), `local` (local runs only) and `image` (the image only). renderer/Dockerfile installs the
 * runtime and image ones, its build stage the build ones; test/scripts/renderer-image.test.ts holds it to this
 * list, and `npm run image:check` builds a root filesystem from it. The setup installs them all (the image's too,
 * a few KB: the image test looks at their files here).
 */
export const APT_PACKAGES = [
  ["ffmpeg", "/usr/bin/ffmpeg", "runtime"],
  // The full browser runs local Browser Rendering (image jobs); the renderer runs the headless shell only.
  ["chromium", "/usr/bin/chromium", "local"],
  ["chromium-headless-shell", "/usr/bin/chromium-headless-shell", "runtime"],
  ["fonts-dejavu-core", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "runtime"],
  ["fonts-liberation2", "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf", "runtime"],
  ["fonts-noto-color-emoji", "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", "runtime"],
  // Chinese, Japanese and Korean glyphs (7 MB) for text and captions; caption wrapping measures with it too.
  ["fonts-droid-fallback", "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", "runtime"],
  // Offline speech recognition for autoSubtitles (the renderer's local transcription backend).
  ["pocketsphinx", "/usr/bin/pocketsphinx_continuous", "runtime"],
  ["pocketsphinx-en-us", "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin", "runtime"],
  // The offline voice of `speech` layers (the renderer's local text-to-speech backend).
  ["espeak-ng", "/usr/bin/espeak-ng", "runtime"],
  // The native transition drawer (renderer/native/gl-transition.c): a C compiler, EGL and OpenGL ES headers
  // and loaders, and Mesa's software GL (llvmpipe) behind them.
  ["gcc", "/usr/bin/gcc", "build"],
  ["libc6-dev", "/usr/include/stdio.h", "build"],
  ["libegl-dev", "/usr/include/EGL/egl.h", "build"],
  ["libgles-dev", "/usr/include/GLES3/gl3.h", "build"],
  ["libegl1", "/usr/share/doc/libegl1/copyright", "runtime"],
  ["libgles2", "/usr/share/doc/libgles2/copyright", "runtime"],
  ["libegl-mesa0", "/usr/share/glvnd/egl_vendor.d/50_mesa.json", "runtime"],
  ["libgl1-mesa-dri", "/usr/share/drirc.d/00-mesa-defaults.conf", "runtime"],
  // PID 1 of the image: forwards SIGTERM to node and reaps orphaned Chromium/ffmpeg helpers.
  ["tini", "/usr/bin/tini", "image"],
  // The README's first render is curl and jq; the end-to-end suite runs it as written (test/e2e/readme.test.ts).
  ["curl", "/usr/bin/curl", "local"],
  ["jq", "/usr/bin/jq", "local"],
];

const log = (msg) => console.log(`[setup] ${msg}`);

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

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
    const r = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (r.status !== 0) {
      console.error(`[setup] apt-get ${args[0]} failed (exit ${r.status}).`);
      process.exit(1);
    }
  }
};

/** Debian's Chromium binary itself (its /usr/bin wrapper script adds nothing we need): local Browser Rendering runs it. */
export const chromiumBinary = () =>
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
 * Flags that take the network away from every frame of a Chromium whose pages must reach nothing (their allowed
 * files are answered by request interception, inside the browser): a proxy that does not exist, loopback
 * included; no name resolves; WebRTC may use no UDP that bypasses the (dead) proxy, so no STUN/TURN packet
 * leaves. Debian's chromium-headless-shell honours the WebRTC switch; the full chromium reads the same policy
 * from its profile's Preferences (`CHROMIUM_SEALED_PREFERENCES`). The renderer's copy is renderer/src/settings.ts's.
 */
export const CHROMIUM_SEALED_FLAGS = [
  "--proxy-server=http://127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>",
  "--host-resolver-rules=MAP * ~NOTFOUND",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
];

/** The profile preference that stops WebRTC's non-proxied UDP in the full chromium. */
export const CHROMIUM_SEALED_PREFERENCES = JSON.stringify({
  webrtc: {
    ip_handling_policy: "disable_non_proxied_udp",
    multiple_routes_enabled: false,
    nonproxied_udp_enabled: false,
  },
});

/** `setpriv` arguments that run a command as the browser user (root only), or none (not root: our own user). */
const asBrowserUser = () =>
  isRoot() ? ["setpriv", `--reuid=${BROWSER_USER}`, `--regid=${BROWSER_USER}`, ...SETPRIV_FLAGS, "--"] : [];

/**
 * Creates the browser user when root and it is missing: a system user with its own group, no home, no shell, no
 * password. The image creates the same (renderer/Dockerfile).
 */
const ensureBrowserUser = () => {
  if (!isRoot() || spawnSync("id", ["-u", BROWSER_USER], { stdio: "ignore" }).status === 0) return;
  log(`creating the system user ${BROWSER_USER} (Chromium runs as it)`);
  const r = spawnSync(
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
  if (r.status !== 0) {
    console.error(`[setup] useradd ${BROWSER_USER} failed (exit ${r.status}).`);
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

/**
 * Whether Chromium's own sandbox works here for the user it runs as (the browser user under root): a sandboxed
 * headless start succeeds (it needs unprivileged user namespaces; Debian ships no setuid helper).
 */
const chromiumSandboxWorks = () => {
  const profile = mkdtempSync(join(tmpdir(), "chromium-probe-"));
  try {
    if (isRoot()) spawnSync("chown", [`${BROWSER_USER}:`, profile]);
    const argv = [
      ...asBrowserUser(),
      chromiumBinary(),
      "--headless=new",
      "--disable-gpu",
      `--user-data-dir=${profile}`,
      "--dump-dom",
      "about:blank",
    ];
    const r = spawnSync(argv[0], argv.slice(1), {
      stdio: "ignore",
      timeout: 30_000,
      env: { HOME: profile, PATH: "/usr/bin:/bin" },
    });
    return r.status === 0;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
};

/**
 * chromiumSandboxWorks, asked once for a process and the processes it starts: the answer goes into their environment
 * (MRS_CHROMIUM_SANDBOX, 1 or 0), so that `npm test`'s lanes and every `npm start` and `npm run key` they run do not
 * each launch a Chromium to ask again (~2 s and half a CPU-second each).
 */
const sandboxWorks = () => {
  const known = process.env.MRS_CHROMIUM_SANDBOX;
  if (known === "1" || known === "0") return known === "1";
  const works = chromiumSandboxWorks();
  process.env.MRS_CHROMIUM_SANDBOX = works ? "1" : "0";
  return works;
};

/**
 * Miniflare's local Browser Rendering downloads a pinned Chrome into the wrangler cache; offline that fails and
 * there is no setting for an executable path. Put a launcher at that path that runs Debian's Chromium instead,
 * sealed: as the browser user when started by root (its profile handed to that user), an environment holding
 * nothing of ours (no secrets reach the browser), its sandbox on where this machine allows it, no GPU (the image
 * page needs none; the renderer's flags, chromium-isolation.json), no network (CHROMIUM_SEALED_FLAGS, and the
 * WebRTC preference written into the profile miniflare creates for each launch).
 */
export const localChromeLauncher = (sandbox = sandboxWorks()) => {
  const flags = [
    ...(sandbox ? [] : ["--no-sandbox"]),
    "--disable-gpu",
    ...ISOLATION.noGpuFlags,
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    ...CHROMIUM_SEALED_FLAGS,
  ].map((f) => `'${f}'`);
  // Without root, setpriv only sets --pdeathsig (the browser runs as the service's own user, sandboxed).
  const setpriv = asBrowserUser().length > 0 ? asBrowserUser() : ["setpriv", "--pdeathsig=KILL", "--"];
  const cmd = `env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 TMPDIR="\${TMPDIR:-/tmp}" \\
  ${setpriv.map((a) => `'${a}'`).join(" ")} ${chromiumBinary()} ${flags.join(" ")} "$@"`;
  if (!isRoot())
    return `#!/bin/sh
# Written by the media render service's setup: Debian's Chromium for local Browser Rendering, without network.
home="\${TMPDIR:-/tmp}"
for arg in "$@"; do
  case "$arg" in
    --user-data-dir=*) dir="\${arg#--user-data-dir=}"; home="$dir"; mkdir -p "$dir/Default"
      [ -e "$dir/Default/Preferences" ] || printf '%s' '${CHROMIUM_SEALED_PREFERENCES}' > "$dir/Default/Preferences" ;;
  esac
done
# setpriv --pdeathsig: the browser dies with the process that launched it (wrangler dev, a test run), so a
# stopped service never leaves a Chromium spinning behind it.
exec ${cmd}
`;
  // As root the browser runs as ${BROWSER_USER}, who cannot reach the profile miniflare made for it under the
  // project's private .wrangler/ (0700): the profile moves to a folder of its own under TMPDIR, and goes when the
  // browser exits (or, if this launcher was killed, at the next launch).
  return `#!/bin/sh
# Written by the media render service's setup: Debian's Chromium for local Browser Rendering, without network.
# This shell stays to remove the profile: it keeps none of the caller's environment either.
[ -n "$MRS_LAUNCHER_CLEAN" ] || exec env -i MRS_LAUNCHER_CLEAN=1 PATH=/usr/bin:/bin TMPDIR="\${TMPDIR:-/tmp}" "$0" "$@"
# The process that launched the browser (exec keeps the caller: wrangler dev, a test run).
parent=$PPID
profiles="\${TMPDIR:-/tmp}/${BROWSER_USER}-profiles"
mkdir -p "$profiles" && chmod 0711 "$profiles"
for old in "$profiles"/*; do
  [ -f "$old/.launcher" ] && ! kill -0 "$(cat "$old/.launcher")" 2>/dev/null && rm -rf "$old"
done
home="$(mktemp -d "$profiles/p-XXXXXX")"
echo $$ > "$home/.launcher"
mkdir -p "$home/Default"
printf '%s' '${CHROMIUM_SEALED_PREFERENCES}' > "$home/Default/Preferences"
chown -R '${BROWSER_USER}:' "$home"
for arg do
  shift
  case "$arg" in --user-data-dir=*) arg="--user-data-dir=$home" ;; esac
  set -- "$@" "$arg"
done
trap 'kill "$child" 2>/dev/null' TERM INT HUP
# setpriv --pdeathsig: the browser dies with this launcher; and this launcher ends it when the process that launched
# it dies (wrangler dev or a test run killed: puppeteer starts browsers in a process group of their own, so a
# killed service's group signal does not reach them), so a stopped service never leaves a Chromium behind it.
${cmd} &
child=$!
( while kill -0 "$parent" 2>/dev/null && kill -0 "$child" 2>/dev/null; do sleep 1; done
  kill "$child" 2>/dev/null ) </dev/null >/dev/null 2>&1 &
wait "$child"; status=$?
wait "$child" 2>/dev/null
rm -rf "$home"
exit $status
`;
};

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
  const r = spawnSync("sh", [script], { stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`[setup] building the native helpers failed (exit ${r.status}).`);
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
