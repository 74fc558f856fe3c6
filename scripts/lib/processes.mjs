// Starting and stopping the local service's processes (renderer, wrangler dev) and waiting for them.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

/** Whether 127.0.0.1:port can be listened on now. */
const canListen = (port) =>
  new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

/** The first port the kernel hands out by itself (Linux's ip_local_port_range; 32768 where it cannot be read). */
const ephemeralLow = () => {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
  } catch {
    return 32768;
  }
};

/**
 * `count` consecutive TCP ports on 127.0.0.1 that are free now, between 10000 and the kernel's ephemeral range. A
 * port from that range (what a listen on port 0 answers) can be handed to any process's next outgoing connection
 * between this check and the service's own listen, which then fails; one below it is taken only by a process that
 * names it. Random, so two test lanes asking at once get different ports.
 */
export const freePorts = async (count = 1) => {
  const low = 10_000;
  const high = ephemeralLow() - count;
  for (let tries = 0; high > low && tries < 100; tries++) {
    const first = low + Math.floor(Math.random() * (high - low));
    let free = true;
    for (let i = 0; i < count && free; i++) free = await canListen(first + i);
    if (free) return Array.from({ length: count }, (_, i) => first + i);
  }
  throw new Error(`no ${count} consecutive free ports between ${low} and ${high + count}`);
};

/** A free TCP port on 127.0.0.1 (freePorts). */
export const freePort = async () => (await freePorts(1))[0];

/** Polls `url` until it answers 2xx, or throws after `timeoutMs`. */
export const waitForUrl = async (url, timeoutMs = 60_000, child) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) {
      const tail = child.outputTail?.() ?? "";
      throw new Error(
        `${url}: process exited with code ${child.exitCode}${tail ? `; its last output:\n${tail}` : ""}`,
      );
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become ready within ${timeoutMs} ms`);
};

/**
 * Spawns a long-running child in its own process group (so stopping it stops its children too). Its last 40
 * lines of output are kept (`child.outputTail()`), quiet or not, so that a start that fails can say why.
 */
export const startProcess = (name, command, args, { cwd, env, quiet = false } = {}) => {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const tail = [];
  child.outputTail = () => tail.join("\n");
  const prefix = (stream, out) =>
    stream.on("data", (chunk) => {
      for (const line of chunk.toString().split("\n")) {
        if (!line.trim()) continue;
        tail.push(`[${name}] ${line}`);
        if (tail.length > 40) tail.shift();
        if (!quiet) out.write(`[${name}] ${line}\n`);
      }
    });
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  return child;
};

/** Stops a child started with startProcess (SIGTERM to its group, SIGKILL after a grace period). */
export const stopProcess = async (child, graceMs = 5000) => {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }, graceMs);
  await exited;
  clearTimeout(timer);
};

/** Starts the renderer (renderer/) as a plain Node process on 127.0.0.1:port. */
export const startRenderer = (root, port, secret, { name = "renderer", ...opts } = {}) =>
  startProcess(
    name,
    join(root, "node_modules", ".bin", "node"),
    [join(root, "renderer", "src", "server.ts")],
    {
      cwd: root,
      env: { HOST: "127.0.0.1", PORT: String(port), RENDERER_SECRET: secret },
      ...opts,
    },
  );

/**
 * New API keys of (new or reused) local accounts, one per address of `emails`, in order, made the way `npm run key`
 * makes them (scripts/key.mjs: the API's own verbs on the local D1, all in one run) for the service started with the
 * settings `env` (its STATE_DIR). Asynchronous on purpose: a caller blocked for the seconds the keys take keeps its
 * idle keep-alive connections to the service in its pool after the service has closed them (wrangler dev closes one
 * idle for 15 s), and its next request, sent before the close is read, fails with "other side closed".
 */
export const mintKeys = async (root, env, { emails, plan = "pro", permissions = "jobs:full,media:full" }) => {
  const { stdout } = await promisify(execFile)(
    join(root, "node_modules", ".bin", "node"),
    [
      join(root, "scripts", "key.mjs"),
      ...emails.flatMap((email) => ["--email", email]),
      ...["--permissions", permissions, "--plan", plan],
    ],
    { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" },
  );
  return stdout.trim().split("\n").slice(-emails.length);
};

/** One new API key (mintKeys for one address). */
export const mintKey = async (root, env, { email, ...options }) =>
  (await mintKeys(root, env, { emails: [email], ...options }))[0];

/**
 * The whole service as `npm start` starts it (scripts/start.mjs), on free ports with a throw-away state directory,
 * for the end-to-end tests, the benchmarks and the client generator. `key()` mints an API key the way
 * `npm run key` does (scripts/key.mjs: the API's own verbs on the local D1); `stop()` ends the service and removes
 * its state. `env` adds settings (RENDERERS, ...); the project's Node comes first on PATH, as `npm run` arranges
 * (wrangler refuses an older system Node).
 */
export const startLocalService = async (
  root,
  { env: extra = {}, quiet = true, timeoutMs = 180_000, renderers = 1 } = {},
) => {
  const stateDir = mkdtempSync(join(tmpdir(), "mrs-service-"));
  // npm start writes the renderers' current pids here (fault tests kill and freeze them).
  const pidsFile = join(stateDir, "renderers.json");
  // The API's port, then RENDERERS=N renderers on RENDERER_PORT .. RENDERER_PORT+N-1: all of them free.
  const [port, rendererPort] = await freePorts(1 + renderers);
  const env = {
    PORT: String(port),
    RENDERER_PORT: String(rendererPort),
    RENDERERS: String(renderers),
    STATE_DIR: stateDir,
    RENDERER_PIDS_FILE: pidsFile,
    PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
    ...extra,
  };
  const node = join(root, "node_modules", ".bin", "node");
  const service = startProcess("service", node, [join(root, "scripts", "start.mjs")], {
    cwd: root,
    env,
    quiet,
  });
  const stop = async () => {
    await stopProcess(service, 10_000);
    rmSync(stateDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForUrl(`${base}/health`, timeoutMs, service);
  } catch (e) {
    await stop();
    throw e;
  }
  const key = (options) => mintKey(root, env, options);
  const keys = (options) => mintKeys(root, env, options);
  const rendererPorts = Array.from({ length: renderers }, (_, i) => rendererPort + i);
  return { base, port, env, service, stateDir, pidsFile, rendererPorts, key, keys, stop };
};
