/**
 * Renderer entry point: `node renderer/src/server.ts`. Reads the environment, asks the tools for their
 * versions once, serves the app, and shuts down cleanly on SIGTERM/SIGINT (stop accepting, let in-flight
 * requests finish, abort long work through AppDeps.shutdownSignal).
 */
import { mkdir } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { createApp } from "./app.ts";
import { loadConfig, type Config } from "./settings.ts";
import { isRoot } from "./lib/run-as.ts";
import { openToTools, ToolUsers } from "./lib/tool-users.ts";
import { readToolVersions, type ToolVersions } from "./tool-versions.ts";
import { closeBrowser } from "./video/raster/browser.ts";
import { RenderQueue } from "./video/render-queue.ts";

/** How long shutdown waits for in-flight requests before cutting their connections. */
const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:8788 (the real port when config.port was 0). */
  url: string;
  port: number;
  /** Stops accepting, aborts long work, waits for in-flight requests (at most the grace period), closes Chromium. */
  close(): Promise<void>;
}

/** Starts the renderer. `tools` may be passed to skip the version probe (it costs ~0.5 s). */
export const startServer = async (
  config: Config,
  options: { tools?: ToolVersions } = {},
): Promise<RunningServer> => {
  await mkdir(config.tmpDir, { recursive: true });
  // Each task's tools reach their own folder in it (0700, theirs).
  if (isRoot()) await openToTools(config.tmpDir);
  const toolUsers = new ToolUsers(config.toolUids);
  const tools = options.tools ?? (await readToolVersions(config, toolUsers));
  const shutdown = new AbortController();
  const renders = new RenderQueue({
    slots: config.renderSlots,
    maxWaiting: config.renderQueueMax,
    perAccount: config.renderQueuePerAccount,
  });
  const app = createApp({
    ...{ config, tools, startedAt: Date.now(), shutdownSignal: shutdown.signal },
    ...{ renders, toolUsers },
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      shutdown.abort();
      // Waiting jobs report a retryable failure at once (running ones do through shutdownSignal): the Worker
      // hands them to another renderer instead of waiting for their leases to lapse.
      renders.abortAll("shutdown");
      const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        // The warm Chromium (text/html rasterising) would otherwise outlive the server.
        void closeBrowser().finally(resolve);
      });
      // Keep-alive sockets with no request in flight would otherwise hold close() open.
      server.closeIdleConnections();
    });
    return closing;
  };
  return { url: `http://${host}:${port}`, port, close };
};

const main = async (): Promise<void> => {
  const config = loadConfig();
  const running = await startServer(config);
  console.log(`[renderer] listening on ${running.url}`);
  const onSignal = (signal: NodeJS.Signals): void => {
    console.log(`[renderer] ${signal} received, shutting down`);
    running.close().then(() => console.log("[renderer] stopped"));
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
};

if (import.meta.main) {
  main().catch((error: unknown) => {
    console.error("[renderer] failed to start:", error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
