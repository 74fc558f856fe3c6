#!/usr/bin/env node
// `npm start`: installs what is missing, applies D1 migrations, and runs the whole service locally:
// `wrangler dev` (API on 127.0.0.1:$PORT, default 8787) and the renderer beside it (127.0.0.1:$RENDERER_PORT,
// default PORT+1). STATE_DIR moves the local D1/R2/queue state (tests use a temporary one).
import { ensureNodeModules, reexecOnProjectNode, root, setup } from "./setup.mjs";

ensureNodeModules();
if (!reexecOnProjectNode()) {
  const { startProcess, startRenderer, stopProcess, waitForUrl } = await import("./lib/processes.mjs");
  const { ensureDevVars } = await import("./lib/secrets.mjs");
  const { bin } = await import("./lib/system.mjs");
  const port = Number(process.env.PORT || 8787);
  const rendererPort = Number(process.env.RENDERER_PORT || port + 1);
  const stateDir = process.env.STATE_DIR;
  await setup({ persistTo: stateDir });
  const vars = ensureDevVars(root, {
    ENVIRONMENT: "development",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    RENDERER_URL: `http://127.0.0.1:${rendererPort}`,
    // No internet locally: catalogue fonts come from the bundled catalogue only, no captcha vendor.
    FONT_CATALOGUE_ONLINE: "false",
    CAPTCHA_ENABLED: "false",
    // Sign-in limits for one developer on loopback (production: 5 and 60 per hour).
    AUTH_EMAIL_LIMIT_PER_HOUR: "100",
    AUTH_IP_LIMIT_PER_HOUR: "1000",
  });

  const renderer = startRenderer(root, rendererPort, vars.RUNNER_SECRET);
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
    { cwd: root, env: { CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", CI: "true" } },
  );
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    await Promise.all([stopProcess(worker), stopProcess(renderer)]);
    process.exit(code);
  };
  process.on("SIGINT", () => stop(0));
  process.on("SIGTERM", () => stop(0));
  for (const [name, child] of [
    ["worker", worker],
    ["renderer", renderer],
  ]) {
    child.on("exit", (code) => {
      if (!stopping) {
        console.error(`[start] ${name} exited (code ${code}); stopping`);
        void stop(1);
      }
    });
  }
  try {
    await Promise.all([
      waitForUrl(`http://127.0.0.1:${rendererPort}/health`, 60_000, renderer),
      waitForUrl(`http://127.0.0.1:${port}/health`, 120_000, worker),
    ]);
  } catch (e) {
    console.error(`[start] ${e.message}`);
    await stop(1);
  }
  console.log(`[start] ready: API http://127.0.0.1:${port}  renderer http://127.0.0.1:${rendererPort}`);
  console.log(
    `[start] create an API key with: npm run key -- --email you@example.com --permissions jobs:full,media:full`,
  );
}
