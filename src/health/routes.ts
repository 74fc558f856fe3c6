/** /health and /health/detailed (real checks of D1, R2, the queues and the renderer). */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { ok } from "../lib/envelope";
import { NoQuery, queryParams } from "../lib/validate";
import { adminAuth } from "./admin-auth";
import { basics, detailedHealth } from "./check-health";
import { Health } from "./schemas";
import { describe } from "../lib/openapi-route";

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
