/**
 * What a crafted file that took over a decoder could reach (issue 42, finding A), checked on the renderer's start
 * command (`node renderer/src/server.ts`, RENDERER_SECRET in its environment, run as root like the image) with every
 * external tool (ffmpeg, ffprobe, espeak-ng, pocketsphinx, the GL helper) behind a wrapper that looks around before it
 * runs the real one: each runs with nothing of the renderer's environment, and, under a root renderer, as a tool user
 * of its task's own (no groups, no capabilities, no_new_privs) that cannot read the renderer's environment, PID 1's, a
 * 0600 secrets file, or another job's folder that it finds on a process's command line, as an attacker would.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDevVars } from "../../scripts/lib/secrets.mjs";
import { DEFAULT_RENDER_TOOLS } from "../src/settings.ts";
import { DEFAULT_TOOL_UIDS } from "../src/lib/tool-users.ts";
import { closeBrowser } from "../src/video/raster/browser.ts";
import { signedFetcher } from "./helpers/start-test-server.ts";
import { startWorkerStandIn, type WorkerStandIn } from "./helpers/worker-stand-in.ts";
import { FIXTURES } from "./video/media-helpers.ts";

const ENTRY = fileURLToPath(new URL("../src/server.ts", import.meta.url));
const SECRET = `tools-${randomBytes(12).toString("hex")}`;
/** The renderer switches users only when it runs as root (the image, these machines). */
const ROOT = process.getuid?.() === 0;

let worker: WorkerStandIn;
let server: ChildProcess;
let dir: string;
let logs: string;
let devVars: string;
let signedFetch: ReturnType<typeof signedFetcher>;

/** Starts the renderer's entry as production does (RENDERER_SECRET in its environment); resolves with its URL. */
const startEntry = async (env: Record<string, string>): Promise<string> => {
  server = spawn(process.execPath, [ENTRY], {
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", RENDERER_SECRET: SECRET, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  server.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  return new Promise((resolve, reject) => {
    server.stdout!.on("data", (c: Buffer) => {
      output += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m?.[1]) resolve(m[1]);
    });
    server.once("exit", (code) => reject(new Error(`renderer exited early (${code}): ${output}`)));
  });
};

/**
 * A stand-in for `real` that writes what it sees into the log folder (never its stdout or stderr, which the renderer
 * reads), then runs it. A job's first ffmpeg run waits (at most 20 s) for another job's folder to show on some
 * process's command line, and tries to read it.
 */
const wrapper = (name: string, real: string, root: string) => `#!/bin/sh
log="${logs}/${name}.$$"
{
  echo "tool ${name}"
  echo "args $*"
  echo "ids $(id -u) $(id -g) [$(id -G)]"
  echo "env $(tr '\\0' ' ' < /proc/$$/environ)"
  grep -E '^(CapEff|CapBnd|NoNewPrivs):' /proc/$$/status | tr -s '\\t\\n' '  '; echo
  for t in /proc/$PPID/environ /proc/1/environ "${devVars}"; do
    if cat "$t" > /dev/null 2>&1; then echo "read $t"; else echo "denied $t"; fi
  done
  mine=$(echo "$*" | grep -oE '${root}/(video|probe)-[A-Za-z0-9]{6}' | head -n 1)
  if [ -n "$mine" ]; then
    if ls "$mine" > /dev/null 2>&1; then echo "own $mine"; else echo "lost $mine"; fi
  fi
  tried="${logs}/tried-$(basename "$mine")"
  if [ "${name}" = ffmpeg ] && echo "$mine" | grep -q /video- && [ ! -e "$tried" ]; then
    : > "$tried"
    # One grep over every process's command line (not a process per process: on a busy machine that took minutes),
    # for at most 20 s of wall time.
    other=""; until=$(($(date +%s) + 20))
    while [ -z "$other" ] && [ "$(date +%s)" -lt "$until" ]; do
      other=$(grep -ahoE '${root}/video-[A-Za-z0-9]{6}' /proc/[0-9]*/cmdline 2>/dev/null \\
        | grep -v "^$mine\\$" | head -n 1)
      [ -n "$other" ] || sleep 0.1
    done
    if [ -z "$other" ]; then echo "alone"
    elif ls "$other" > /dev/null 2>&1; then echo "read-other $other"
    else echo "denied-other $other"; fi
  fi
} > "$log" 2>&1
exec ${real} "$@"
`;

/** Each run's record: the tool, its ids, its environment and what it could read. */
interface Seen {
  tool: string;
  /** Asked for its version (the start-up check, a task of its own). */
  version: boolean;
  uid: number;
  gid: number;
  groups: string;
  env: string;
  status: string;
  lines: string[];
}

const seenRuns = (): Seen[] =>
  readdirSync(logs)
    .filter((f) => !f.startsWith("tried-"))
    .map((f) => {
      const lines = readFileSync(join(logs, f), "utf8").split("\n");
      const line = (p: string) => lines.find((l) => l.startsWith(p))?.slice(p.length) ?? "";
      const [uid, gid, groups] = /^(\d+) (\d+) \[(.*)\]$/.exec(line("ids "))?.slice(1) ?? [];
      return {
        tool: line("tool "),
        version: /^-{1,2}version$/.test(line("args ")),
        uid: Number(uid),
        gid: Number(gid),
        groups: groups ?? "",
        env: line("env "),
        status: lines.find((l) => l.startsWith("CapEff")) ?? "",
        lines,
      };
    });

beforeAll(async () => {
  worker = await startWorkerStandIn();
  dir = await mkdtemp(join(tmpdir(), "renderer-tools-"));
  // Anyone may enter it, as /tmp: only the renderer's own modes protect what is inside.
  await chmod(dir, 0o755);
  logs = join(dir, "logs");
  await mkdir(logs);
  await chmod(logs, 0o1777);
  // A 0600 secrets file as the project's setup writes .dev.vars, in a folder anyone may enter.
  const devDir = join(dir, "dev");
  await mkdir(devDir, { mode: 0o755 });
  ensureDevVars(devDir);
  devVars = join(devDir, ".dev.vars");
  const root = join(dir, "renderer");
  const bin = join(dir, "bin");
  await mkdir(bin, { mode: 0o755 });
  const tools = {
    FFMPEG_PATH: ["ffmpeg", "/usr/bin/ffmpeg"],
    FFPROBE_PATH: ["ffprobe", "/usr/bin/ffprobe"],
    ESPEAK_PATH: ["espeak-ng", "/usr/bin/espeak-ng"],
    POCKETSPHINX_PATH: ["pocketsphinx", "/usr/bin/pocketsphinx_continuous"],
    GL_TRANSITION_PATH: ["gl-transition", DEFAULT_RENDER_TOOLS.glTransitionPath!],
  } as const;
  const env: Record<string, string> = { TMP_DIR: root, RENDER_SLOTS: "2" };
  for (const [variable, [name, real]] of Object.entries(tools)) {
    const path = join(bin, name);
    await writeFile(path, wrapper(name, real, root), { mode: 0o755 });
    env[variable] = path;
  }
  const url = await startEntry(env);
  signedFetch = signedFetcher(url, SECRET);
}, 60_000);

afterAll(async () => {
  server?.kill("SIGTERM");
  await worker?.close();
  await closeBrowser();
  if (!process.env.KEEP_TOOL_LOGS) await rm(dir, { recursive: true, force: true });
});

/** A render request of the stand-in's. */
const job = (jobId: string, config: object, inputs: Record<string, string> = {}) => ({
  jobId,
  config: { width: 160, height: 90, fps: 10, ...config },
  inputs,
  output: { uploadUrl: `${worker.base}/upload/${jobId}.mp4`, format: "mp4" },
  callbackUrl: `${worker.base}/callback`,
  attempt: 1,
  accountId: `acct-${jobId}`,
});

describe("the renderer's external tools", () => {
  it("run with nothing of the renderer's environment, as a tool user of their task's own that reaches no secret and no other job", async () => {
    expect(
      DEFAULT_RENDER_TOOLS.glTransitionPath,
      "the project's setup built the native helper",
    ).not.toBeNull();
    const speech = job("tools-speech", {
      clips: [
        {
          duration: 1,
          transition: { name: "cube", duration: 0.5 },
          layers: [
            { type: "fill-color", color: "#ff0000" },
            { type: "speech", text: "hello there" },
          ],
        },
        { duration: 1, layers: [{ type: "fill-color", color: "#0000ff" }] },
      ],
    });
    const ref = "/audio/2026-01-15/u1/speech-en.wav";
    const heard = job(
      "tools-heard",
      {
        clips: [{ duration: 3, layers: [{ type: "fill-color", color: "#000000" }] }],
        audioTracks: [{ path: ref }],
        autoSubtitles: true,
      },
      { [ref]: `${worker.base}/files/speech-en.wav` },
    );
    const post = (body: object) =>
      signedFetch("/render/video", { method: "POST", body: JSON.stringify(body) }).then((r) => r.status);
    expect(await Promise.all([post(speech), post(heard)])).toEqual([202, 202]);
    const probe = await signedFetch("/probe", {
      method: "POST",
      headers: { "x-filename": "winxp.mp3" },
      body: new Uint8Array(readFileSync(join(FIXTURES, "winxp.mp3"))),
    });
    expect(probe.status).toBe(200);
    for (const id of ["tools-speech", "tools-heard"]) {
      const final = await worker.final(id);
      expect(final, JSON.stringify(final)).toMatchObject({ status: "completed" });
    }

    const runs = seenRuns();
    console.log(
      `[tools] ${runs.length} runs: ${runs.map((r) => `${r.tool} uid ${r.uid}`).join(", ")}; ` +
        runs
          .flatMap((r) => r.lines.filter((l) => /other|alone/.test(l)).map((l) => `${r.tool} ${l}`))
          .join("; "),
    );
    expect(new Set(runs.map((r) => r.tool))).toEqual(
      new Set(["ffmpeg", "ffprobe", "espeak-ng", "pocketsphinx", "gl-transition"]),
    );
    for (const r of runs) {
      const names = r.env
        .split(" ")
        .filter(Boolean)
        .map((kv) => kv.split("=")[0]);
      const allowed =
        r.tool === "gl-transition"
          ? [
              "LIBGL_ALWAYS_SOFTWARE",
              "GALLIUM_DRIVER",
              "MESA_SHADER_CACHE_DIR",
              "MESA_SHADER_CACHE_MAX_SIZE",
            ].concat(["MESA_SHADER_CACHE_DISABLE", "GL_TRANSITION_MAX_BYTES"])
          : ["PATH"];
      expect({ tool: r.tool, extra: names.filter((n) => !allowed.includes(n!)) }).toEqual({
        tool: r.tool,
        extra: [],
      });
      expect(r.env).not.toContain(SECRET);
    }
    // The control: the renderer itself holds the secret.
    expect(readFileSync(`/proc/${server.pid}/environ`, "utf8")).toContain(SECRET);
    if (!ROOT) return;

    const { first, last } = DEFAULT_TOOL_UIDS;
    for (const r of runs) {
      const what = `${r.tool} (uid ${r.uid})`;
      expect(r.uid, what).toBeGreaterThanOrEqual(first);
      expect(r.uid, what).toBeLessThanOrEqual(last);
      expect({ what, gid: r.gid, groups: r.groups }).toEqual({ what, gid: r.uid, groups: String(r.uid) });
      expect(r.status, what).toMatch(/CapEff:\s*0+\s+CapBnd:\s*0+\s+NoNewPrivs:\s*1/);
      for (const target of [`/proc/${server.pid}/environ`, "/proc/1/environ", devVars])
        expect(r.lines, `${what} reading ${target}`).toContain(`denied ${target}`);
    }
    // One tool user per task: the two jobs' and the probe's differ, and each job's runs share theirs.
    const uidsOf = (tools: string[], where: (r: Seen) => boolean = () => true) =>
      new Set(runs.filter((r) => tools.includes(r.tool) && !r.version && where(r)).map((r) => r.uid));
    const speechUids = uidsOf(["espeak-ng", "gl-transition"]);
    const heardUids = uidsOf(["pocketsphinx"]);
    expect(speechUids.size).toBe(1);
    expect(heardUids.size).toBe(1);
    expect([...speechUids][0]).not.toBe([...heardUids][0]);
    const probeUids = uidsOf(["ffprobe"], (r) => r.lines.some((l) => /^own .*\/probe-/.test(l)));
    expect(probeUids.size).toBe(1);
    expect([...speechUids, ...heardUids]).not.toContain([...probeUids][0]);
    // Every run on a task's files could use its own folder; an ffmpeg that found the other job's folder on a command
    // line could not read it.
    const onFiles = runs.filter((r) => r.lines.some((l) => /^(own|lost) /.test(l)));
    expect(onFiles.length).toBeGreaterThanOrEqual(3);
    for (const r of onFiles) {
      expect(
        r.lines.filter((l) => l.startsWith("lost ")),
        r.tool,
      ).toEqual([]);
      expect(
        r.lines.filter((l) => l.startsWith("read-other")),
        r.tool,
      ).toEqual([]);
    }
    const tried = onFiles.filter((r) => r.lines.some((l) => l.startsWith("denied-other ")));
    expect(new Set(tried.map((r) => r.uid)).size, "both jobs' ffmpeg tried the other's folder").toBe(2);
  }, 180_000);
});
