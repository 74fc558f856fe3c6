#!/usr/bin/env node
// `npm start`: installs what is missing, applies D1 migrations, and runs the whole service locally:
// `wrangler dev` (API on 127.0.0.1:$PORT, default 8787) and the renderers beside it: RENDERERS (default 1) plain
// renderer processes on 127.0.0.1:$RENDERER_PORT, +1, ... (default PORT+1), the local stand-in for container
// instances: the Worker routes over them with the pool code it uses in production. A renderer that dies is
// started again (as the container platform does), with a growing pause if it keeps dying; the API stays up.
// STATE_DIR moves the local D1/R2/queue state (tests use a temporary one), and with it everything of the run: wrangler
// dev then runs from a mirror of the checkout in STATE_DIR with the run's settings in a .dev.vars of its own, so the
// checkout's .dev.vars (the secrets) and .wrangler/ stay as they are, whatever else runs from the same checkout
// (npm test runs the end-to-end suite beside the Worker suite, which reads that .dev.vars). RENDERER_PIDS_FILE, when
// set, gets the renderers' current process ids as JSON (fault tests kill and freeze them).
import { join, resolve } from "node:path";
import { writeFileSync } from "node:fs";
import { parseCommandLine } from "./lib/command-line.mjs";
import { ensureNodeModules, reexecOnProjectNode, root, setup } from "./setup.mjs";

parseCommandLine({
  name: "start",
  command: "npm start",
  about:
    "Installs what is missing, applies the local D1 migrations and runs the whole service locally: the API (wrangler\n" +
    "dev) and the renderers beside it (docs/getting-started.md). Ctrl-C stops it all.",
  env: {
    PORT: "the API's port (default 8787)",
    RENDERER_PORT: "the first renderer's port (default PORT + 1)",
    RENDERERS: "how many renderers, on consecutive ports (default 1, at most 8)",
    STATE_DIR: "the local D1, R2 and queue state, and everything else of the run (default .wrangler/state)",
    IMAGE_BROWSERS: "local Chromiums for image jobs (default 2)",
    PARALLEL_RENDER_MIN_WORK:
      "a job's pixels x seconds from which it renders in chunks (default a minute of 720p)",
    PARALLEL_CAPTIONED_CHUNK_SECONDS: "the shortest chunk of a captioned job, in seconds (default 300)",
    RENDERER_PIDS_FILE: "a file that gets the renderers' process ids as JSON",
  },
});

ensureNodeModules();
if (!reexecOnProjectNode()) {
  const { startProcess, startRenderer, stopProcess, waitForUrl } = await import("./lib/processes.mjs");
  const { ensureDevVars, writeDevVars } = await import("./lib/secrets.mjs");
  const { mirrorCheckout } = await import("./lib/mirror.mjs");
  const { bin } = await import("./lib/system.mjs");
  const port = Number(process.env.PORT || 8787);
  const rendererPort = Number(process.env.RENDERER_PORT || port + 1);
  const count = Math.max(1, Math.min(8, Number(process.env.RENDERERS || 1)));
  const rendererPorts = Array.from({ length: count }, (_, i) => rendererPort + i);
  const stateDir = process.env.STATE_DIR && resolve(process.env.STATE_DIR);
  await setup({ persistTo: stateDir });
  const settings = {
    ENVIRONMENT: "development",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    RENDERER_URL: rendererPorts.map((p) => `http://127.0.0.1:${p}`).join(","),
    // No internet locally: catalogue fonts come from the bundled catalogue only, no captcha vendor.
    FONT_CATALOGUE_ONLINE: "false",
    CAPTCHA_ENABLED: "false",
    // A local browser object is a local Chromium: one per core (IMAGE_BROWSERS overrides).
    IMAGE_BROWSERS: process.env.IMAGE_BROWSERS || "2",
    // Parallel rendering's threshold (docs/parallel-rendering.md); empty = the default, a minute of 720p.
    PARALLEL_RENDER_MIN_WORK: process.env.PARALLEL_RENDER_MIN_WORK || "",
    PARALLEL_CAPTIONED_CHUNK_SECONDS: process.env.PARALLEL_CAPTIONED_CHUNK_SECONDS || "",
    // Sign-in limits for one developer on loopback (production: 5 and 60 per hour).
    AUTH_EMAIL_LIMIT_PER_HOUR: "100",
    AUTH_IP_LIMIT_PER_HOUR: "1000",
  };
  // The Worker's folder: the checkout itself, or with STATE_DIR a mirror of it whose .dev.vars is the run's own.
  let workerDir = root;
  let vars;
  if (stateDir) {
    workerDir = mirrorCheckout(root, join(stateDir, "checkout"), [".dev.vars"]);
    vars = { ...ensureDevVars(root), ...settings };
    writeDevVars(workerDir, vars);
  } else vars = ensureDevVars(root, settings);

  let stopping = false;
  const renderers = rendererPorts.map(() => null);
  const writePids = () => {
    if (process.env.RENDERER_PIDS_FILE)
      writeFileSync(
        process.env.RENDERER_PIDS_FILE,
        JSON.stringify(renderers.map((c, i) => ({ port: rendererPorts[i], pid: c?.pid ?? null }))),
      );
  };
  const launch = (i, pauseMs = 1000) => {
    const started = Date.now();
    const child = startRenderer(root, rendererPorts[i], vars.RENDERER_SECRET, {
      name: count > 1 ? `renderer-${i}` : "renderer",
    });
    renderers[i] = child;
    writePids();
    child.on("exit", (code, signal) => {
      if (stopping) return;
      // A renderer that ran a while before dying starts again at once; one that keeps dying waits longer.
      const pause = Date.now() - started > 30_000 ? 1000 : Math.min(10_000, pauseMs * 2);
      console.error(
        `[start] renderer on port ${rendererPorts[i]} exited (${signal ?? `code ${code}`}); restarting`,
      );
      setTimeout(() => !stopping && launch(i, pause), pause);
    });
  };
  rendererPorts.forEach((_, i) => launch(i));
  const inspector = String(await (await import("./lib/processes.mjs")).freePort());
  const worker = startProcess(
    "worker",
    bin(root, "wrangler"),
    [
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      inspector,
      "--show-interactive-dev-session=false",
      ...(stateDir ? ["--persist-to", stateDir] : []),
    ],
    {
      cwd: workerDir,
      env: { CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", CI: "true" },
    },
  );
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    await Promise.all([stopProcess(worker), ...renderers.map((r) => stopProcess(r))]);
    process.exit(code);
  };
  process.on("SIGINT", () => stop(0));
  process.on("SIGTERM", () => stop(0));
  worker.on("exit", (code) => {
    if (!stopping) {
      console.error(`[start] worker exited (code ${code}); stopping`);
      void stop(1);
    }
  });
  try {
    await Promise.all([
      ...rendererPorts.map((p) => waitForUrl(`http://127.0.0.1:${p}/health`, 60_000)),
      waitForUrl(`http://127.0.0.1:${port}/health`, 120_000, worker),
    ]);
  } catch (e) {
    console.error(`[start] ${e.message}`);
    await stop(1);
  }
  console.log(
    `[start] ready: API http://127.0.0.1:${port}  renderer${count > 1 ? "s" : ""} ${rendererPorts.map((p) => `http://127.0.0.1:${p}`).join(" ")}`,
  );
  console.log(
    `[start] create an API key with: npm run key -- --email you@example.com --permissions jobs:full,media:full`,
  );
}
