/**
 * How the renderer starts every Chromium (text sheets, html layers, the WebGL page), whose pages run users' markup,
 * scripts and shaders: never with the renderer's environment (RENDERER_SECRET) or its credentials.
 *
 * - As root (the image, local runs), the browser runs as the unprivileged `chromiumUser` (render-browser), through
 *   `setpriv` (lib/run-as.ts: no supplementary groups, no capabilities, an empty bounding set, no_new_privs, SIGKILL
 *   when the renderer dies). That user cannot read the renderer's /proc/<pid>/environ, PID 1's, the jobs'
 *   0700 temp directories or the local .dev.vars (0600); nothing of ours is in its environment.
 * - Its files live in a private 0700 directory of its own (HOME, TMPDIR, the profile), removed when it exits.
 * - On top, Chromium's own sandbox (user/PID namespaces and seccomp) wherever it starts: a container without
 *   unprivileged user namespaces keeps the uid barrier alone (found once per binary, and logged).
 * - A renderer not running as root cannot switch users: the sandbox is then required (Chromium refuses to start
 *   without one), unless `chromiumSandbox` is `off`, which runs the browser as the renderer's own user.
 *
 * DevTools is spoken over a pipe (fds 3 and 4), never a loopback port another local process could connect to.
 */
import { existsSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";
import { run } from "../../lib/process.ts";
import { asUser, isRoot, lookupUser, type Identity } from "../../lib/run-as.ts";

/** Chromium's own sandbox: `auto` wherever it starts (required when the renderer is not root), or `off`. */
export const CHROMIUM_SANDBOX = ["auto", "off"] as const;

/** What starting a Chromium needs (the renderer's RenderTools carry it). */
export interface ChromiumLaunch {
  /** The binary. */
  chromiumPath: string;
  /** The unprivileged user it runs as when the renderer is root. */
  chromiumUser: string;
  /** Chromium's own sandbox on top of that user. */
  chromiumSandbox: (typeof CHROMIUM_SANDBOX)[number];
}

/** What Chromium needs on these offline machines (platform notes), besides the sandbox decision made here. */
export const OFFLINE_CHROMIUM_FLAGS = [
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The credentials a browser of `chromium` runs with: the browser user under a root renderer, else null (our own). */
const identityOf = (chromium: ChromiumLaunch): Identity | null => {
  if (!isRoot()) return null;
  const who = lookupUser(chromium.chromiumUser);
  if (!who || who.uid === 0)
    throw new Error(
      `Chromium runs as the unprivileged user "${chromium.chromiumUser}" when the renderer is root, and it does not exist: ` +
        `create it (npm run setup does; the image does: useradd --system ${chromium.chromiumUser}) or set CHROMIUM_USER`,
    );
  return who;
};

/** The environment of a browser: its own directory and nothing of ours. */
const browserEnv = (dir: string): Record<string, string> => ({
  HOME: dir,
  TMPDIR: dir,
  PATH: "/usr/bin:/bin",
  LANG: "C.UTF-8",
});

/** A fresh 0700 directory owned by `who` for one browser (HOME, TMPDIR, its profile). */
const privateDir = async (role: string, who: Identity | null): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), `chromium-${role}-`));
  if (who) await chown(dir, who.uid, who.gid);
  return dir;
};

/** Binaries (with their user) whose sandbox does not start on this machine: launched without it. */
const unsandboxed = new Set<string>();
/** The probe of each binary and user, once: browsers launched at once share it. */
const probes = new Map<string, Promise<boolean>>();

/** Whether Chromium `chromium` starts with its sandbox as `who` (one headless page load; about a second). */
const sandboxStarts = async (chromium: ChromiumLaunch, who: Identity | null): Promise<boolean> => {
  const dir = await privateDir("probe", who);
  try {
    const args = [
      "--headless",
      ...OFFLINE_CHROMIUM_FLAGS,
      `--user-data-dir=${join(dir, "profile")}`,
      "--dump-dom",
      "about:blank",
    ];
    await run(chromium.chromiumPath, args, { timeoutMs: 30_000, env: browserEnv(dir), user: who });
    return true;
  } catch {
    return false;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/**
 * Starts Chromium `chromium` with `flags` (puppeteer's defaults for a headless shell are added), as described above.
 * `role` names its private directory (`chromium-<role>-*`), which tells the processes apart in `ps`.
 */
export const launchChromium = async (
  chromium: ChromiumLaunch,
  role: string,
  flags: string[],
): Promise<Browser> => {
  // setpriv would report a missing browser as its own failure: name the configured binary instead.
  if (!existsSync(chromium.chromiumPath))
    throw new Error(`Chromium ${chromium.chromiumPath} could not start: no such file`);
  const who = identityOf(chromium);
  const key = `${chromium.chromiumPath}\0${who?.uid ?? "self"}`;
  const start = async (sandboxed: boolean): Promise<Browser> => {
    const dir = await privateDir(role, who);
    try {
      const args = await puppeteer.defaultArgs({
        browser: "chrome",
        headless: "shell",
        userDataDir: join(dir, "profile"),
        args: [...(sandboxed ? [] : ["--no-sandbox"]), ...OFFLINE_CHROMIUM_FLAGS, ...flags],
      });
      const [executablePath, ...prefix] = asUser(who, [chromium.chromiumPath]);
      const browser = await puppeteer.launch({
        executablePath,
        args: [...prefix, ...args],
        ignoreDefaultArgs: true,
        pipe: true,
        env: browserEnv(dir),
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      browser.process()?.once("exit", () => void rm(dir, { recursive: true, force: true }).catch(() => {}));
      return browser;
    } catch (e) {
      await rm(dir, { recursive: true, force: true });
      throw e;
    }
  };
  const sandboxed = chromium.chromiumSandbox === "auto" && !unsandboxed.has(key);
  if (!sandboxed) return start(false);
  try {
    return await start(true);
  } catch (e) {
    if (who === null)
      throw new Error(
        `Chromium could not start with its sandbox as this (non-root) user: ${(e as Error).message}. Run the ` +
          `renderer as root (browsers then run as "${chromium.chromiumUser}"), allow user namespaces, or set ` +
          `CHROMIUM_SANDBOX=off to run them unsandboxed as this user`,
      );
    // Only a sandbox that cannot start here is worked around; any other failure is the caller's to see.
    let probe = probes.get(key);
    if (!probe) {
      probe = sandboxStarts(chromium, who);
      probes.set(key, probe);
      void probe.then((works) => {
        if (works) return probes.delete(key);
        unsandboxed.add(key);
        console.warn(
          `[renderer] Chromium's sandbox does not start here (no user namespaces?): browsers run as "${who.name}" without it`,
        );
      });
    }
    if (await probe) throw e;
    return start(false);
  }
};
