/** /health and /health/detailed (real checks of D1, R2, the queues and the renderer). */
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { ok } from "../lib/envelope.ts";
import { NoQuery, queryParams } from "../lib/validate.ts";
import { adminAuth } from "./admin-auth.ts";
import { basics, detailedHealth } from "./check-health.ts";
import { Health } from "./schemas.ts";
import { describe } from "../lib/openapi-route.ts";

export const healthRoutes = new Hono<AppEnv>()
  .get(
    "/",
    describe({
      operationId: "getHealth",
      tag: "Health",
      summary: "Liveness",
      public: true,
      query: NoQuery,
      ok: { status: 200, description: "`status: healthy`, service name, version, environment", data: Health },
      mcp: false,
    }),
    (c) => {
      queryParams(c, NoQuery);
      return ok(c, { status: "healthy", ...basics(c.env) } satisfies Health);
    },
  )
  .get("/detailed", adminAuth, async (c) => {
    const health = await detailedHealth(c.var.ctx);
    return ok(c, health, health.status === "unhealthy" ? 503 : 200);
  });
