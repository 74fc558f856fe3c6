// The root filesystems of `npm run image:check` (scripts/image-check.mjs): node:24-bookworm-slim's stand-in, made once
// and kept, and each stage of renderer/Dockerfile built on a copy of it, step by step, as a build runs them: each RUN
// in a chroot, each COPY from the build context or an earlier stage. Needs root (debootstrap, chroot, mounts).
import { execFileSync, spawnSync } from "node:child_process";
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
import { dirname, join, posix } from "node:path";
import { envPairs } from "../dockerfile.mjs";

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
export const nodeBase = (root, cache, log) => {
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

/** The PATH a command in the image starts with (node:24-bookworm-slim's). */
export const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

const shellQuote = (s) => `'${String(s).replaceAll("'", "'\\''")}'`;

/**
 * The shell script that runs `argv` in a chroot of `fs`, in `workdir`, with `env` alone: /dev, /proc and /sys
 * mounted first, then what the commands of `mounts` mount. Run in a mount namespace of its own, the mounts go with it.
 */
export const chrootScript = (fs, { env, workdir, argv, mounts = [] }) =>
  [
    "set -e",
    `mount --rbind /dev "${fs}/dev"`,
    `mount -t proc proc "${fs}/proc"`,
    `mount -t sysfs -o ro sysfs "${fs}/sys"`,
    ...mounts,
    `exec chroot "${fs}" /usr/bin/env -i ${Object.entries(env)
      .map(([k, v]) => `'${k}=${v}'`)
      .join(" ")} /bin/sh -c 'cd "$0" && exec "$@"' "${workdir}" ${argv.map(shellQuote).join(" ")}`,
  ].join("\n");

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
  const script = chrootScript(fs, {
    env,
    workdir: state.workdir,
    argv,
    mounts: [
      `mount --bind "${archives}" "${fs}/var/cache/apt/archives"`,
      ...(ca ? [`mount --bind -o ro "${hostCa}" "${ca}"`] : []),
    ],
  });
  const result = spawnSync("unshare", ["--mount", "--pid", "--fork", "sh", "-c", script], {
    stdio: "inherit",
  });
  if (ca) rmSync(ca, { force: true });
  if (result.status !== 0) throw new Error(`RUN ${argv.at(-1)} failed (exit ${result.status})`);
};

const isDir = (path) => {
  try {
    readdirSync(path);
    return true;
  } catch {
    return false;
  }
};

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

/** What a stage holds before its first step: the state its ENV, WORKDIR, USER, ENTRYPOINT and CMD change. */
const emptyState = () => ({ workdir: "/", env: {}, user: null, entrypoint: [], cmd: [] });

/**
 * Builds `stage` into `fs` (a copy of the base), one step after another, and returns the state it ends with. A COPY
 * copies from `context` (the build context's folder), or with `--from` from the root filesystem `stages` has under
 * that stage's name; RUN keeps the downloaded packages in `archives`. `slowStep(what, seconds)` hears of each step
 * that took over a second.
 */
export const buildStage = (fs, stage, { context, stages, archives, slowStep }) => {
  const state = emptyState();
  for (const step of stage.steps) {
    const t0 = Date.now();
    if (step.op === "RUN") runIn(fs, state, ["/bin/sh", "-c", step.args], archives);
    else if (step.op === "COPY")
      copyInto(fs, state.workdir, step, step.from ? stages.get(step.from) : context);
    else if (step.op === "WORKDIR") {
      state.workdir = posix.resolve(state.workdir, step.args);
      mkdirSync(join(fs, state.workdir), { recursive: true });
    } else if (step.op === "ENV") Object.assign(state.env, envPairs(step.args));
    else if (step.op === "USER") state.user = step.args;
    else if (step.op === "ENTRYPOINT") state.entrypoint = JSON.parse(step.args);
    else if (step.op === "CMD") state.cmd = JSON.parse(step.args);
    else if (step.op !== "EXPOSE") throw new Error(`no stand-in for ${step.op}`);
    const seconds = (Date.now() - t0) / 1000;
    if (seconds > 1) slowStep(`${step.op} ${step.args.slice(0, 60)}`, seconds);
  }
  return state;
};

/** The ENV, WORKDIR, USER, ENTRYPOINT and CMD a stage ends with (for a kept image). */
export const replay = (stage) => {
  const state = emptyState();
  for (const step of stage.steps) {
    if (step.op === "WORKDIR") state.workdir = posix.resolve(state.workdir, step.args);
    else if (step.op === "ENV") Object.assign(state.env, envPairs(step.args));
    else if (step.op === "USER") state.user = step.args;
    else if (step.op === "ENTRYPOINT") state.entrypoint = JSON.parse(step.args);
    else if (step.op === "CMD") state.cmd = JSON.parse(step.args);
  }
  return state;
};
