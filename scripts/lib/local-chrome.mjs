// The Chromium that local Browser Rendering (miniflare) starts: Debian's Chromium behind a launcher written where
// miniflare looks for its pinned Chrome, sealed (no network, no GPU, none of our environment) and run as the browser
// user when started by root, its own sandbox on where this machine allows it. Plain Node (runs on the machine's
// Node 20 before npm install too).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
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

/** Whether this process runs as root (it then starts Chromium as BROWSER_USER, and may install). */
export const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/** Debian's Chromium binary itself (its /usr/bin wrapper script adds nothing we need): local Browser Rendering runs it. */
export const chromiumBinary = () =>
  existsSync("/usr/lib/chromium/chromium") ? "/usr/lib/chromium/chromium" : "/usr/bin/chromium";

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
    const result = spawnSync(argv[0], argv.slice(1), {
      stdio: "ignore",
      timeout: 30_000,
      env: { HOME: profile, PATH: "/usr/bin:/bin" },
    });
    return result.status === 0;
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
