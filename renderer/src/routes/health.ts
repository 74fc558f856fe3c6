/** GET /health: liveness plus the tool versions read at start-up, as the contract's `RendererHealth`. Unsigned. */
import { Hono } from "hono";
import { RENDERER_PATHS, type RendererHealth } from "@media-render/contract/wire";
import type { AppDeps } from "../deps.ts";

/** Service version reported by /health (the renderer contract's version). */
export const RENDERER_VERSION = "1.0.0";

export const healthRoutes = (deps: AppDeps): Hono =>
  new Hono().get(RENDERER_PATHS.health, (context) => {
    const health: RendererHealth = {
      status: "ok",
      service: "renderer",
      version: RENDERER_VERSION,
      uptimeSeconds: Math.floor((Date.now() - deps.startedAt) / 1000),
      capacity: {
        slots: deps.renders.limits.slots,
        running: deps.renders.running,
        waiting: deps.renders.waiting,
        maxWaiting: deps.renders.limits.maxWaiting,
        finished: deps.renders.finished,
      },
      tools: deps.tools,
    };
    return context.json(health);
  });
