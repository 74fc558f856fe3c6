// The checks of `npm run image:check`'s smoke run, one function each, in the order smoke.mjs runs them against the
// image's renderer: its health and tools, a probe, a render of the smoke job (a title, an animated html layer, a drawn
// transition, a gl layer) checked by its pixels, the user and environment of every Chromium it started, and a clean
// stop. Each check adds one line to the run's report (ok or FAIL, with what it saw); one that throws (the renderer
// never up, no final report) ends the run there, and smoke.mjs reports the smoke render failed.
//
// A check takes the run: `{ base, secret, signed, child, worker, fs, root, check, lines }`: the renderer's address,
// its RENDERER_SECRET and a fetch signed with it, the started process (unshare), the Worker stand-in, the image's
// root filesystem, the repository, and the report's `check` and `lines` (report()).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromiumProcessesUnder } from "../../../renderer/test/helpers/chromium-processes.ts";
import { waitForUrl } from "../processes.mjs";

/** A smoke run's report: its lines, `check(what, ok, detail)` adding one, and whether every check passed. */
export const report = () => {
  const lines = [];
  const results = [];
  const check = (what, ok, detail = "") => {
    results.push(ok);
    lines.push(`${ok ? "ok  " : "FAIL"} ${what}${detail ? `: ${detail}` : ""}`);
  };
  return { lines, check, ok: () => results.every(Boolean) };
};

/** GET /health answers "ok" once the renderer is up (within 2 minutes of its start); returns what it said. */
export const checkHealth = async ({ base, child, check }) => {
  const t0 = Date.now();
  await waitForUrl(`${base}/health`, 120_000, child);
  const health = await (await fetch(`${base}/health`)).json();
  check(
    "GET /health",
    health.status === "ok",
    `up ${((Date.now() - t0) / 1000).toFixed(1)} s after start; tools ${JSON.stringify(health.tools)}`,
  );
  return health;
};

/** Every tool /health lists gave its version, none "not working". */
export const checkTools = ({ check }, health) =>
  check(
    "every tool answers (ffmpeg, ffprobe, the headless shell, the native GL helper)",
    Object.values(health.tools).every((v) => typeof v === "string" && !v.startsWith("not working")),
  );

/** POST /probe of the shared fixtures' mp3 finds its audio (ffprobe in the image). */
export const checkProbe = async ({ signed, root, check }) => {
  const fixture = readFileSync(join(root, "..", "shared", "fixtures", "winxp.mp3"));
  const probe = await signed("/probe", {
    method: "POST",
    body: new Uint8Array(fixture),
    headers: { "x-filename": "winxp.mp3" },
  });
  const probed = await probe.json();
  check("POST /probe (ffprobe)", probe.status === 200 && probed.hasAudio === true, JSON.stringify(probed));
};

const JOB_ID = "image-check";

/**
 * The smoke render: 640x360 at 25 fps, 2.5 s. A dark blue clip with a white title at the top and a green animated
 * html box at the bottom left, a cube transition (the native GL helper) into a magenta gl clip.
 */
const smokeJob = (worker) => ({
  jobId: JOB_ID,
  config: {
    width: 640,
    height: 360,
    fps: 25,
    clips: [
      {
        duration: 1.5,
        transition: { name: "cube", duration: 0.5 },
        layers: [
          { type: "fill-color", color: "#203040" },
          { type: "title", text: "Image check", position: "top" },
          {
            type: "html",
            animated: true,
            duration: 1,
            width: 200,
            height: 100,
            position: "bottom-left",
            html: "<div style='position:absolute;inset:0;background:#00ff00'></div>",
          },
        ],
      },
      {
        duration: 1.5,
        layers: [{ type: "gl", fragmentShader: "void main() { gl_FragColor = vec4(1.0, 0.0, 1.0, 1.0); }" }],
      },
    ],
  },
  inputs: {},
  output: { uploadUrl: `${worker.base}/upload/${JOB_ID}.mp4`, format: "mp4" },
  callbackUrl: `${worker.base}/callback`,
  attempt: 1,
  accountId: "acct-image-check",
});

/**
 * POST /render/video of the smoke job is taken and completes within 5 minutes. Returns its upload (the Worker
 * stand-in's PUT, if any) and every Chromium process seen under the renderer while it rendered (looked at every
 * 50 ms).
 */
export const checkRender = async ({ signed, child, worker, check }) => {
  const seen = new Map();
  const watch = setInterval(() => {
    for (const p of chromiumProcessesUnder(child.pid)) seen.set(p.pid, p);
  }, 50);
  const r0 = Date.now();
  const offered = await signed("/render/video", { method: "POST", body: JSON.stringify(smokeJob(worker)) });
  const final = await Promise.race([
    worker.final(JOB_ID),
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error("no final report within 5 minutes")), 300_000),
    ),
  ]);
  clearInterval(watch);
  check(
    "POST /render/video",
    offered.status === 202 && final.status === "completed",
    `${final.status} in ${((Date.now() - r0) / 1000).toFixed(1)} s${final.error ? `: ${final.error}` : ""}`,
  );
  return { put: worker.puts.get(`/upload/${JOB_ID}.mp4`), seen: [...seen.values()] };
};

/**
 * The uploaded video written beside the root filesystem (`image-check.mp4`) and read back: ffprobe's `probed`
 * duration and size, and `mean(t, x, y, w, h)`, the mean colour of a box of the frame at `t` (the whole frame by
 * default), `frame(t, crop)`, the RGB bytes of a crop of it.
 */
const readVideo = (fs, bytes) => {
  const out = join(fs, "..", "image-check.mp4");
  writeFileSync(out, bytes);
  const probed = JSON.parse(
    execFileSync(
      "ffprobe",
      ["-v", "error", "-show_entries", "format=duration:stream=width,height", "-of", "json", out],
      { encoding: "utf8" },
    ),
  );
  const frame = (seconds, crop) =>
    execFileSync("ffmpeg", [
      "-v",
      "error",
      "-ss",
      String(seconds),
      "-i",
      out,
      "-frames:v",
      "1",
      "-vf",
      crop,
      "-f",
      "rawvideo",
      "-pix_fmt",
      "rgb24",
      "-",
    ]);
  const mean = (t, x = 0, y = 0, w = 640, h = 360) => [
    ...frame(t, `crop=${w}:${h}:${x}:${y},scale=1:1:flags=area`),
  ];
  return { probed, frame, mean };
};

/** Whether two colours are within `tol` of each other in every channel. */
const near = (a, b, tol = 40) => a.every((v, i) => Math.abs(v - b[i]) < tol);

/** The video is the job's size and length. */
const checkVideoSize = ({ check }, { probed }) => {
  const duration = Number(probed.format.duration);
  check(
    "the video is 640x360, 2.5 s",
    probed.streams[0].width === 640 && Math.abs(duration - 2.5) < 0.1,
    `${probed.streams[0].width}x${probed.streams[0].height}, ${duration} s`,
  );
};

/** The animated html layer (the headless shell's capture) is green at the bottom left. */
const checkHtmlLayer = ({ check }, { mean }) => {
  const html = mean(0.5, 40, 280, 16, 16);
  check("the html layer is drawn (green, bottom left)", near(html, [0, 255, 0]), html.join(","));
};

/** The title is white text in the top quarter. */
const checkTitle = ({ check }, { frame }) => {
  const top = frame(0.5, "crop=640:90:0:0");
  const white = top.reduce(
    (n, v, i) => (i % 3 === 0 && v > 200 && top[i + 1] > 200 && top[i + 2] > 200 ? n + 1 : n),
    0,
  );
  check("the title is drawn (white text at the top)", white > 200, `${white} white pixels`);
};

/** The gl layer (the fragment shader) is magenta. */
const checkGlLayer = ({ check }, { mean }) => {
  const gl = mean(2.3, 300, 160, 40, 40);
  check("the gl layer is drawn (magenta)", near(gl, [255, 0, 255]), gl.join(","));
};

/** Mid-transition the frame is neither the first clip's nor the second's. */
const checkTransition = ({ check }, { mean }) => {
  const [before, mid, after] = [0.9, 1.25, 1.6].map((t) => mean(t));
  check(
    "the drawn transition (cube, native helper) is under way at 1.25 s",
    !near(mid, before, 12) && !near(mid, after, 12),
    `mean colour ${before.join(",")} -> ${mid.join(",")} -> ${after.join(",")}`,
  );
};

/** The uploaded video (`put`, checkRender's), checked by its size and its pixels; a failed check when none came. */
export const checkVideo = (run, put) => {
  if (!put) return run.check("the video was uploaded", false);
  const video = readVideo(run.fs, put.bytes);
  for (const each of [checkVideoSize, checkHtmlLayer, checkTitle, checkGlLayer, checkTransition])
    each(run, video);
};

/**
 * Every Chromium process seen (checkRender's) ran as the image's browser user and without RENDERER_SECRET in its
 * environment; then a line of information on how many were under Chromium's own seccomp sandbox.
 */
export const checkBrowserUser = ({ fs, secret, check, lines }, seen) => {
  const users = readFileSync(join(fs, "etc", "passwd"), "utf8");
  const browserUid = Number(/^render-browser:[^:]*:(\d+):/m.exec(users)?.[1]);
  const roles = [...new Set(seen.map((p) => p.role))].sort().join(", ");
  check(
    "every Chromium process runs as render-browser, with none of the renderer's environment",
    seen.length > 0 && seen.every((p) => p.uid === browserUid && !p.environ.includes(secret)),
    `${seen.length} processes (${roles}), uid ${browserUid}`,
  );
  const sandboxed = seen.filter((p) => p.seccomp === 2).length;
  lines.push(
    `info Chromium's own sandbox: ${sandboxed} of ${seen.length} processes under seccomp (a chroot cannot create user namespaces)`,
  );
};

/**
 * SIGTERM to the namespace's PID 1 (tini), as the platform stops a container: tini forwards it to node, which
 * finishes and exits 0 (SIGKILL after 20 s). unshare itself ignores SIGTERM while it waits.
 */
export const checkStop = async ({ child, check }) => {
  const exited = new Promise((r) =>
    child.exitCode !== null ? r(child.exitCode) : child.once("exit", (code) => r(code)),
  );
  const pid1 = Number(
    readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(" ")[0],
  );
  const t0 = Date.now();
  if (pid1) process.kill(pid1, "SIGTERM");
  const stop = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const code = await exited;
  clearTimeout(stop);
  check(
    "SIGTERM to PID 1 (tini) stops the renderer cleanly",
    code === 0,
    `exit ${code} after ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
};
