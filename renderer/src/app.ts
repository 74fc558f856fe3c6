/**
 * Builds the renderer's Hono app: signature check first, then every route module, then one error mapper.
 * Adding a route = writing `routes/<name>.ts` that exports a {@link RouteFactory} and listing it in ROUTES.
 */
import { Hono } from "hono";
import { RENDERER_PATHS } from "@media-render/contract/wire";
import { requireSignature } from "./auth.ts";
import type { AppDeps, RouteFactory } from "./deps.ts";
import { BadRequest, PayloadTooLarge, UnprocessableMedia } from "./lib/errors.ts";
import { healthRoutes } from "./routes/health.ts";
import { probeRoutes } from "./routes/probe.ts";
import { renderVideoRoutes } from "./routes/render-video.ts";

const ROUTES: readonly RouteFactory[] = [healthRoutes, probeRoutes, renderVideoRoutes];

/** Requests that need no signature, as "METHOD /path". */
const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  `GET ${RENDERER_PATHS.health}`,
  `HEAD ${RENDERER_PATHS.health}`,
]);

/** Requests whose body may arrive streamed and unhashed (a stored file to probe: its only effect is the answer). */
const STREAMED_ROUTES: ReadonlySet<string> = new Set([`POST ${RENDERER_PATHS.probe}`]);

/** Maps domain errors to the contract's `{"error": "..."}` bodies; anything else is a logged 500. */
const errorResponse = (error: unknown): { status: 400 | 413 | 422 | 500; message: string } => {
  if (error instanceof BadRequest) return { status: 400, message: error.message };
  if (error instanceof PayloadTooLarge) return { status: 413, message: error.message };
  if (error instanceof UnprocessableMedia) return { status: 422, message: error.message };
  return { status: 500, message: "Internal error" };
};

/** The renderer app for the given dependencies (tests build it with their own config). */
export const createApp = (deps: AppDeps): Hono => {
  const app = new Hono();
  app.use(
    "*",
    requireSignature({
      secret: deps.config.rendererSecret,
      publicRoutes: PUBLIC_ROUTES,
      streamedRoutes: STREAMED_ROUTES,
    }),
  );
  for (const routes of ROUTES) app.route("/", routes(deps));
  app.notFound((c) => c.json({ error: "Not found" }, 404));
  app.onError((error, context) => {
    const { status, message } = errorResponse(error);
    if (status === 500) console.error(`[renderer] ${context.req.method} ${context.req.path} failed:`, error);
    // After a 413 the rest of the upload is unwanted: close the connection instead of draining it.
    if (status === 413) context.header("connection", "close");
    return context.json({ error: message }, status);
  });
  return app;
};
