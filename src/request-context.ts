/**
 * The first middleware of the app: builds the request's context once (see context.ts). Wiring, so it sits beside
 * context.ts rather than in lib/, which names the context by its types only (scripts/check-layers.mjs).
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env.ts";
import { createContext } from "./context.ts";

export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  c.set("ctx", createContext(c.env, { defer: (work) => c.executionCtx.waitUntil(work) }));
  await next();
});
