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
//
// The root filesystems are built by scripts/lib/image-check/root-filesystem.mjs; the smoke run is
// scripts/lib/image-check/smoke.mjs, its checks one function each in scripts/lib/image-check/checks.mjs.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
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

const timedAsync = async (timings, what, fn) => {
  const t0 = Date.now();
  const out = await fn();
  timings.push([what, (Date.now() - t0) / 1000]);
  return out;
};

const main = async () => {
  const { parseDockerfile, contextFiles } = await import("./lib/dockerfile.mjs");
  const { buildStage, nodeBase, replay } = await import("./lib/image-check/root-filesystem.mjs");
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
  for (const file of files) {
    mkdirSync(dirname(join(context, file)), { recursive: true });
    copyFileSync(join(root, file), join(context, file));
  }
  log(`build context: ${files.length} files`);

  const base = timed("base (debootstrap + Node)", () => nodeBase(root, cache, log));
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
    const state = buildStage(fs, stage, {
      context,
      stages: rootfs,
      archives,
      slowStep: (what, s) => timings.push([`stage ${i}: ${what}`, s]),
    });
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

  const result = await timedAsync(timings, "smoke render (start, health, probe, render)", async () => {
    const { smoke } = await import("./lib/image-check/smoke.mjs");
    return smoke(final, { root, log });
  });
  if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
  else log(`kept ${work}`);
  console.log("\n[image:check] summary");
  for (const [what, s] of timings) console.log(`  ${what}: ${s.toFixed(1)} s`);
  console.log(`  image: ${size} MB, ${packages} Debian packages`);
  for (const line of result.lines) console.log(`  ${line}`);
  console.log(`  total: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(result.ok ? 0 : 1);
};

ensureNodeModules();
if (!reexecOnProjectNode()) await main();
