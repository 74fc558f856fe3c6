/** GET /health: liveness plus the tool versions read at start-up. Unsigned by contract. */
import { Hono } from "hono";
import type { AppDeps } from "../app.ts";

/** Service version reported by /health (the renderer contract's version). */
export const RENDERER_VERSION = "1.0.0";

export const healthRoutes = (deps: AppDeps): Hono =>
  new Hono().get("/health", (c) =>
    c.json({
      status: "ok",
      service: "renderer",
      version: RENDERER_VERSION,
      uptimeSeconds: Math.floor((Date.now() - deps.startedAt) / 1000),
      tools: deps.tools,
    }),
  );
