#!/usr/bin/env node
// `npm run image:check`: the renderer image proven without a container engine. Builds renderer/Dockerfile step by
// step into root filesystems: each FROM node:24-bookworm-slim is Debian 12 from debootstrap (minbase, the variant
// Debian's slim images are made of) with this project's Node 24 and npm in /usr/local and the image's `node` user;
// each RUN runs in a chroot of it (apt-get from Debian's archive, as in a build); each COPY copies from a build context
// filtered by Dockerfile.dockerignore, or from an earlier stage. Then runs the image's ENTRYPOINT and CMD in a PID
// namespace of its own (tini is PID 1), with the image's ENV and RENDERER_SECRET, and drives it from here: /health, a
// probe, and a smoke render (a title, an animated html layer, a drawn transition, a gl layer) checked by its pixels,
// while every Chromium process is checked to run as the browser user with none of the renderer's environment.
//
// Needs root (debootstrap, chroot, mounts) and Debian's archive. Keeps the debootstrapped base and the downloaded
// packages in $IMAGE_CHECK_DIR (default $TMPDIR/mrs-image-check; ~2 GB) for the next run. What differs from
// Docker: the renderer listens on a free port of the host's network (not 8080 behind a bridge), and a chroot cannot
// create user namespaces, so Chromium runs without its own sandbox there (the browser user alone, as in a container
// without user namespaces).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import { parseCommandLine } from "./lib/command-line.mjs";
import { ensureNodeModules, reexecOnProjectNode, root } from "./setup.mjs";

parseCommandLine({
  name: "image:check",
  command: "npm run image:check",
  about:
    "Builds the renderer's production image (renderer/Dockerfile) without a container engine, with debootstrap and\n" +
    "chroot, then runs it and drives a smoke render through it. Needs root and Debian's archive (~6 minutes the\n" +
    "first time; the base is kept for later runs).",
  env: {
    IMAGE_CHECK_DIR: "where the base and the downloaded packages are kept (default: $TMPDIR/mrs-image-check)",
  },
});

const main = async () => {
  const { parseDockerfile, contextFiles, envPairs } = await import("./lib/dockerfile.mjs");
  envPairsOf = envPairs;
  const log = (msg) => console.log(`[image:check] ${msg}`);
  const started = Date.now();
  const timings = [];
  const timed = (what, fn) => {
    const t0 = Date.now();
    const out = fn();
    timings.push([what, (Date.now() - t0) / 1000]);
    return out;
  };
  if (process.getuid?.() !== 0) {
    console.error("[image:check] needs root (debootstrap, chroot, mounts): run it as root.");
    process.exit(1);
  }
  if (!existsSync("/usr/sbin/debootstrap")) {
    log("installing debootstrap");
    execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "debootstrap"], {
      stdio: "inherit",
    });
  }
  const cache = process.env.IMAGE_CHECK_DIR || join(tmpdir(), "mrs-image-check");
  const work = join(cache, `run-${process.pid}`);
  const archives = join(cache, "apt-archives");
  mkdirSync(join(archives, "partial"), { recursive: true });
  mkdirSync(work, { recursive: true });

  const dockerfile = readFileSync(join(root, "renderer", "Dockerfile"), "utf8");
  const ignore = readFileSync(join(root, "renderer", "Dockerfile.dockerignore"), "utf8");
  const stages = parseDockerfile(dockerfile);

  // The build context: the repo's files the ignore file lets in, nothing else.
  const context = join(work, "context");
  const files = contextFiles(root, ignore);
  for (const f of files) {
    mkdirSync(dirname(join(context, f)), { recursive: true });
    copyFileSync(join(root, f), join(context, f));
  }
  log(`build context: ${files.length} files`);

  const base = timed("base (debootstrap + Node)", () => nodeBase(cache, log));
  const rootfs = new Map();
  let final = null;
  for (const [i, stage] of stages.entries()) {
    // IMAGE_CHECK_REUSE=<a run's directory kept with KEEP=1>: smoke that image again without building it.
    const kept = process.env.IMAGE_CHECK_REUSE && join(process.env.IMAGE_CHECK_REUSE, `stage-${i}`);
    if (kept && existsSync(kept)) {
      final = { fs: kept, state: replay(stage) };
      continue;
    }
    if (stage.from !== "node:24-bookworm-slim") throw new Error(`no stand-in for FROM ${stage.from}`);
    const fs = join(work, `stage-${i}`);
    log(`stage ${i}${stage.name ? ` (${stage.name})` : ""}: FROM ${stage.from}`);
    timed(`stage ${i}: copy of the base`, () => execFileSync("cp", ["-a", base, fs]));
    const state = { workdir: "/", env: {}, user: null, entrypoint: [], cmd: [] };
    for (const step of stage.steps) {
      const t0 = Date.now();
      if (step.op === "RUN") runIn(fs, state, ["/bin/sh", "-c", step.args], archives);
      else if (step.op === "COPY")
        copyInto(fs, state.workdir, step, step.from ? rootfs.get(step.from) : context);
      else if (step.op === "WORKDIR") {
        state.workdir = posix.resolve(state.workdir, step.args);
        mkdirSync(join(fs, state.workdir), { recursive: true });
      } else if (step.op === "ENV") Object.assign(state.env, envPairs(step.args));
      else if (step.op === "USER") state.user = step.args;
      else if (step.op === "ENTRYPOINT") state.entrypoint = JSON.parse(step.args);
      else if (step.op === "CMD") state.cmd = JSON.parse(step.args);
      else if (step.op !== "EXPOSE") throw new Error(`no stand-in for ${step.op}`);
      const s = (Date.now() - t0) / 1000;
      if (s > 1) timings.push([`stage ${i}: ${step.op} ${step.args.slice(0, 60)}`, s]);
    }
    rootfs.set(stage.name ?? String(i), fs);
    final = { fs, state };
  }
  const size = execFileSync("du", ["-sm", final.fs], { encoding: "utf8" }).split("\t")[0];
  const packages = execFileSync("chroot", [final.fs, "dpkg-query", "-W", "-f=${Package}\\n"], {
    encoding: "utf8",
  })
    .trim()
    .split("\n").length;
  log(`image root filesystem: ${size} MB, ${packages} Debian packages`);

  const result = await timedAsync(timings, "smoke render (start, health, probe, render)", () =>
    smoke(final, log),
  );
  if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
  else log(`kept ${work}`);
  console.log("\n[image:check] summary");
  for (const [what, s] of timings) console.log(`  ${what}: ${s.toFixed(1)} s`);
  console.log(`  image: ${size} MB, ${packages} Debian packages`);
  for (const line of result.lines) console.log(`  ${line}`);
  console.log(`  total: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(result.ok ? 0 : 1);
};

/** The ENV, WORKDIR, USER, ENTRYPOINT and CMD a stage ends with (for a kept image). */
const replay = (stage) => {
  const state = { workdir: "/", env: {}, user: null, entrypoint: [], cmd: [] };
  for (const step of stage.steps) {
    if (step.op === "WORKDIR") state.workdir = posix.resolve(state.workdir, step.args);
    else if (step.op === "ENV") Object.assign(state.env, envPairsOf(step.args));
    else if (step.op === "USER") state.user = step.args;
    else if (step.op === "ENTRYPOINT") state.entrypoint = JSON.parse(step.args);
    else if (step.op === "CMD") state.cmd = JSON.parse(step.args);
  }
  return state;
};

const timedAsync = async (timings, what, fn) => {
  const t0 = Date.now();
  const out = await fn();
  timings.push([what, (Date.now() - t0) / 1000]);
  return out;
};

/** Debian 12 minbase from debootstrap (the variant Debian's slim images are made of), made once and kept. */
const debianBase = (cache, log) => {
  const base = join(cache, "bookworm-minbase");
  if (existsSync(join(base, ".image-check-debootstrapped"))) return base;
  rmSync(base, { recursive: true, force: true });
  log("debootstrap --variant=minbase bookworm (once; kept for later runs)");
  execFileSync(
    "debootstrap",
    [
      "--variant=minbase",
      `--cache-dir=${join(cache, "apt-archives")}`,
      "bookworm",
      base,
      "http://deb.debian.org/debian",
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  writeFileSync(join(base, ".image-check-debootstrapped"), "");
  return base;
};

/**
 * node:24-bookworm-slim's stand-in, kept while this project's Node and the host's npm stay the same: the Debian
 * base, the archive's sources as the official Debian image lists them, Node 24 and npm in /usr/local, and the
 * image's `node` user (uid 1000).
 */
const nodeBase = (cache, log) => {
  const base = join(cache, "node-base");
  const marker = join(base, ".image-check-node");
  const node = realpathSync(join(root, "node_modules", ".bin", "node"));
  const npm = dirname(
    dirname(realpathSync(execFileSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).trim())),
  );
  const want = `${node} ${execFileSync(node, ["--version"], { encoding: "utf8" }).trim()} ${npm}`;
  if (existsSync(marker) && readFileSync(marker, "utf8") === want) return base;
  const debian = debianBase(cache, log);
  rmSync(base, { recursive: true, force: true });
  execFileSync("cp", ["-a", debian, base]);
  writeFileSync(join(base, "etc", "apt", "sources.list"), "");
  writeFileSync(
    join(base, "etc", "apt", "sources.list.d", "debian.sources"),
    [
      "Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n",
      "Types: deb\nURIs: http://deb.debian.org/debian-security\nSuites: bookworm-security\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n",
    ].join("\n"),
  );
  mkdirSync(join(base, "usr", "local", "bin"), { recursive: true });
  copyFileSync(node, join(base, "usr", "local", "bin", "node"));
  cpSync(npm, join(base, "usr", "local", "lib", "node_modules", "npm"), { recursive: true });
  for (const [name, target] of [
    ["npm", "../lib/node_modules/npm/bin/npm-cli.js"],
    ["npx", "../lib/node_modules/npm/bin/npx-cli.js"],
  ])
    symlinkSync(target, join(base, "usr", "local", "bin", name));
  execFileSync("chroot", [
    base,
    "sh",
    "-c",
    "groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node",
  ]);
  writeFileSync(marker, want);
  log(`node base: Node ${want.split(" ")[1]}, npm from ${npm}`);
  return base;
};

let envPairsOf = null;

const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/**
 * Runs `argv` in a chroot of `fs` as a build's RUN does: the stage's ENV and WORKDIR, /dev, /proc and /sys mounted in
 * a mount namespace of its own (gone with it), the host's resolv.conf, and the kept package downloads.
 */
const runIn = (fs, state, argv, archives) => {
  copyFileSync("/etc/resolv.conf", join(fs, "etc", "resolv.conf"));
  const env = { PATH: DEFAULT_PATH, HOME: "/root", ...state.env };
  // This machine reaches the npm registry through an egress proxy whose CA the host trusts: the build's steps
  // are given it the way a build on such a network gets it (an environment variable), never as a file of the image.
  const hostCa = process.env.NODE_EXTRA_CA_CERTS;
  const ca = hostCa && existsSync(hostCa) ? join(fs, "run", "host-ca.crt") : null;
  if (ca) {
    writeFileSync(ca, "");
    env.NODE_EXTRA_CA_CERTS = "/run/host-ca.crt";
  }
  const script = [
    "set -e",
    `mount --rbind /dev "${fs}/dev"`,
    `mount -t proc proc "${fs}/proc"`,
    `mount -t sysfs -o ro sysfs "${fs}/sys"`,
    `mount --bind "${archives}" "${fs}/var/cache/apt/archives"`,
    ...(ca ? [`mount --bind -o ro "${hostCa}" "${ca}"`] : []),
    `exec chroot "${fs}" /usr/bin/env -i ${Object.entries(env)
      .map(([k, v]) => `'${k}=${v}'`)
      .join(" ")} /bin/sh -c 'cd "$0" && exec "$@"' "${state.workdir}" ${argv.map(shellQuote).join(" ")}`,
  ].join("\n");
  const r = spawnSync("unshare", ["--mount", "--pid", "--fork", "sh", "-c", script], { stdio: "inherit" });
  if (ca) rmSync(ca, { force: true });
  if (r.status !== 0) throw new Error(`RUN ${argv.at(-1)} failed (exit ${r.status})`);
};

const shellQuote = (s) => `'${String(s).replaceAll("'", "'\\''")}'`;

/** A COPY: each source (a file, or a directory's contents) into `dest`, resolved against WORKDIR. */
const copyInto = (fs, workdir, step, from) => {
  const parts = step.args.split(" ");
  const dest = posix.resolve(workdir, parts.pop());
  const intoDir = dest.endsWith("/") || parts.length > 1 || step.args.trim().endsWith("/");
  for (const src of parts) {
    const source = join(from, src);
    if (!existsSync(source))
      throw new Error(`COPY ${src}: not in the ${step.from ? `stage ${step.from}` : "build context"}`);
    const target = join(fs, intoDir && !isDir(source) ? posix.join(dest, posix.basename(src)) : dest);
    mkdirSync(isDir(source) ? target : dirname(target), { recursive: true });
    cpSync(source, target, { recursive: true });
  }
};

const isDir = (p) => {
  try {
    readdirSync(p);
    return true;
  } catch {
    return false;
  }
};

/** Starts the image's command and drives it; resolves with `{ ok, lines }`. */
const smoke = async ({ fs, state }, log) => {
  const { freePort, waitForUrl } = await import("./lib/processes.mjs");
  const { startWorkerStandIn } = await import("../renderer/test/helpers/worker-stand-in.ts");
  const { signedFetcher } = await import("../renderer/test/helpers/start-test-server.ts");
  const { chromiumProcessesUnder } = await import("../renderer/test/helpers/chromium-processes.ts");
  const secret = randomBytes(24).toString("hex");
  const port = await freePort();
  const env = {
    PATH: DEFAULT_PATH,
    HOME: "/root",
    ...state.env,
    PORT: String(port),
    RENDERER_SECRET: secret,
  };
  const argv = [...state.entrypoint, ...state.cmd];
  copyFileSync("/etc/resolv.conf", join(fs, "etc", "resolv.conf"));
  const script = [
    "set -e",
    `mount --rbind /dev "${fs}/dev"`,
    `mount -t proc proc "${fs}/proc"`,
    `mount -t sysfs -o ro sysfs "${fs}/sys"`,
    `exec chroot "${fs}" /usr/bin/env -i ${Object.entries(env)
      .map(([k, v]) => `'${k}=${v}'`)
      .join(" ")} /bin/sh -c 'cd "$0" && exec "$@"' "${state.workdir}" ${argv.map(shellQuote).join(" ")}`,
  ].join("\n");
  log(`starting ${argv.join(" ")} in ${state.workdir} (PID namespace of its own, port ${port})`);
  const child = spawn("unshare", ["--mount", "--pid", "--fork", "--kill-child", "sh", "-c", script], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  for (const s of [child.stdout, child.stderr])
    s.on("data", (c) => {
      output += c.toString();
      for (const line of c.toString().trimEnd().split("\n")) console.log(`  | ${line}`);
    });
  const worker = await startWorkerStandIn();
  const lines = [];
  const checks = [];
  const check = (what, ok, detail = "") => {
    checks.push(ok);
    lines.push(`${ok ? "ok  " : "FAIL"} ${what}${detail ? `: ${detail}` : ""}`);
  };
  try {
    const base = `http://127.0.0.1:${port}`;
    const t0 = Date.now();
    await waitForUrl(`${base}/health`, 120_000, child);
    const health = await (await fetch(`${base}/health`)).json();
    check(
      "GET /health",
      health.status === "ok",
      `up ${((Date.now() - t0) / 1000).toFixed(1)} s after start; tools ${JSON.stringify(health.tools)}`,
    );
    check(
      "every tool answers (ffmpeg, ffprobe, the headless shell, the native GL helper)",
      Object.values(health.tools).every((v) => typeof v === "string" && !v.startsWith("not working")),
    );
    const signed = signedFetcher(base, secret);
    const fixture = readFileSync(join(root, "..", "shared", "fixtures", "winxp.mp3"));
    const probe = await signed("/probe", {
      method: "POST",
      body: new Uint8Array(fixture),
      headers: { "x-filename": "winxp.mp3" },
    });
    const probed = await probe.json();
    check("POST /probe (ffprobe)", probe.status === 200 && probed.hasAudio === true, JSON.stringify(probed));

    const jobId = "image-check";
    const job = {
      jobId,
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
            layers: [
              { type: "gl", fragmentShader: "void main() { gl_FragColor = vec4(1.0, 0.0, 1.0, 1.0); }" },
            ],
          },
        ],
      },
      inputs: {},
      output: { uploadUrl: `${worker.base}/upload/${jobId}.mp4`, format: "mp4" },
      callbackUrl: `${worker.base}/callback`,
      attempt: 1,
      accountId: "acct-image-check",
    };
    const seen = new Map();
    const watch = setInterval(() => {
      for (const p of chromiumProcessesUnder(child.pid)) seen.set(p.pid, p);
    }, 50);
    const r0 = Date.now();
    const offered = await signed("/render/video", { method: "POST", body: JSON.stringify(job) });
    const final = await Promise.race([
      worker.final(jobId),
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
    const put = worker.puts.get(`/upload/${jobId}.mp4`);
    if (put) {
      const out = join(fs, "..", "image-check.mp4");
      writeFileSync(out, put.bytes);
      const probeOut = JSON.parse(
        execFileSync(
          "ffprobe",
          ["-v", "error", "-show_entries", "format=duration:stream=width,height", "-of", "json", out],
          { encoding: "utf8" },
        ),
      );
      const duration = Number(probeOut.format.duration);
      check(
        "the video is 640x360, 2.5 s",
        probeOut.streams[0].width === 640 && Math.abs(duration - 2.5) < 0.1,
        `${probeOut.streams[0].width}x${probeOut.streams[0].height}, ${duration} s`,
      );
      const frame = (t, crop) =>
        execFileSync("ffmpeg", [
          "-v",
          "error",
          "-ss",
          String(t),
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
      /** Mean colour of a w x h box at x, y (the whole frame by default). */
      const mean = (t, x = 0, y = 0, w = 640, h = 360) => [
        ...frame(t, `crop=${w}:${h}:${x}:${y},scale=1:1:flags=area`),
      ];
      const near = (a, b, tol = 40) => a.every((v, i) => Math.abs(v - b[i]) < tol);
      const html = mean(0.5, 40, 280, 16, 16);
      check("the html layer is drawn (green, bottom left)", near(html, [0, 255, 0]), html.join(","));
      const top = frame(0.5, "crop=640:90:0:0");
      const white = top.reduce(
        (n, v, i) => (i % 3 === 0 && v > 200 && top[i + 1] > 200 && top[i + 2] > 200 ? n + 1 : n),
        0,
      );
      check("the title is drawn (white text at the top)", white > 200, `${white} white pixels`);
      const gl = mean(2.3, 300, 160, 40, 40);
      check("the gl layer is drawn (magenta)", near(gl, [255, 0, 255]), gl.join(","));
      const [before, mid, after] = [0.9, 1.25, 1.6].map((t) => mean(t));
      check(
        "the drawn transition (cube, native helper) is under way at 1.25 s",
        !near(mid, before, 12) && !near(mid, after, 12),
        `mean colour ${before.join(",")} -> ${mid.join(",")} -> ${after.join(",")}`,
      );
    } else check("the video was uploaded", false);

    const users = readFileSync(join(fs, "etc", "passwd"), "utf8");
    const browserUid = Number(/^render-browser:[^:]*:(\d+):/m.exec(users)?.[1]);
    const all = [...seen.values()];
    const roles = [...new Set(all.map((p) => p.role))].sort().join(", ");
    check(
      "every Chromium process runs as render-browser, with none of the renderer's environment",
      all.length > 0 && all.every((p) => p.uid === browserUid && !p.environ.includes(secret)),
      `${all.length} processes (${roles}), uid ${browserUid}`,
    );
    const sandboxed = all.filter((p) => p.seccomp === 2).length;
    lines.push(
      `info Chromium's own sandbox: ${sandboxed} of ${all.length} processes under seccomp (a chroot cannot create user namespaces)`,
    );
  } catch (e) {
    check("smoke render", false, `${e.message}\n--- renderer output ---\n${output.slice(-4000)}`);
  } finally {
    // SIGTERM to the namespace's PID 1 (tini), as the platform stops a container: tini forwards it to node, which
    // finishes and exits 0. unshare itself ignores SIGTERM while it waits.
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
    await worker.close();
  }
  if (checks.some((c) => !c)) lines.push(`--- renderer output ---\n${output.slice(-4000)}`);
  return { ok: checks.every(Boolean), lines };
};

ensureNodeModules();
if (!reexecOnProjectNode()) await main();
