/**
 * Builds the renderer's Hono app: signature check first, then every route module, then one error mapper.
 * Adding a route = writing `routes/<name>.ts` that exports a {@link RouteFactory} and listing it in ROUTES.
 */
import { Hono } from "hono";
import { requireSignature } from "./auth.ts";
import type { Config } from "./config.ts";
import { BadRequest, PayloadTooLarge, UnprocessableMedia } from "./lib/errors.ts";
import type { ToolVersions } from "./lib/tool-versions.ts";
import { healthRoutes } from "./routes/health.ts";
import { probeRoutes } from "./routes/probe.ts";
import { renderVideoRoutes } from "./routes/render-video.ts";

/** What route modules may use; built once by server.ts. */
export interface AppDeps {
  config: Config;
  /** Tool versions read at start-up (GET /health). */
  tools: ToolVersions;
  /** Date.now() when the server started. */
  startedAt: number;
  /** Aborted when the server begins shutting down: long work (renders) should stop and clean up. */
  shutdownSignal: AbortSignal;
}

/** A route module: returns a sub-app whose paths are absolute (it is mounted at "/"). */
export type RouteFactory = (deps: AppDeps) => Hono;

const ROUTES: readonly RouteFactory[] = [healthRoutes, probeRoutes, renderVideoRoutes];

/** Requests that need no signature, as "METHOD /path". */
const PUBLIC_ROUTES: ReadonlySet<string> = new Set(["GET /health", "HEAD /health"]);

/** Maps domain errors to the contract's `{"error": "..."}` bodies; anything else is a logged 500. */
function errorResponse(error: unknown): { status: 400 | 413 | 422 | 500; message: string } {
  if (error instanceof BadRequest) return { status: 400, message: error.message };
  if (error instanceof PayloadTooLarge) return { status: 413, message: error.message };
  if (error instanceof UnprocessableMedia) return { status: 422, message: error.message };
  return { status: 500, message: "Internal error" };
}

/** The renderer app for the given dependencies (tests build it with their own config). */
export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  app.use("*", requireSignature(deps.config.runnerSecret, PUBLIC_ROUTES));
  for (const routes of ROUTES) app.route("/", routes(deps));
  app.notFound((c) => c.json({ error: "Not found" }, 404));
  app.onError((error, c) => {
    const { status, message } = errorResponse(error);
    if (status === 500) console.error(`[renderer] ${c.req.method} ${c.req.path} failed:`, error);
    // After a 413 the rest of the upload is unwanted: close the connection instead of draining it.
    if (status === 413) c.header("connection", "close");
    return c.json({ error: message }, status);
  });
  return app;
}
