/** /health and /health/detailed (real checks of D1, R2, the queues and the renderer). */
import { Hono } from "hono";
import type { AppEnv, Env } from "../env";
import { ok } from "../lib/envelope";
import { rendererFor } from "../runner/renderer-client";
import { adminAuth } from "./admin-auth";

type CheckStatus = "healthy" | "unhealthy";
interface Check {
  status: CheckStatus;
  latencyMs: number;
  message?: string;
  details?: Record<string, unknown>;
}

const timed = async (fn: () => Promise<Record<string, unknown> | void>): Promise<Check> => {
  const start = Date.now();
  try {
    const details = (await fn()) ?? undefined;
    return { status: "healthy", latencyMs: Date.now() - start, ...(details ? { details } : {}) };
  } catch (e) {
    return { status: "unhealthy", latencyMs: Date.now() - start, message: (e as Error).message };
  }
};

const basics = (env: Env) => ({
  timestamp: new Date().toISOString(),
  service: env.SERVICE_NAME,
  version: env.SERVICE_VERSION,
  environment: env.ENVIRONMENT,
});

export const healthRoutes = new Hono<AppEnv>()
  .get("/", (c) => ok(c, { status: "healthy", ...basics(c.env) }))
  .get("/detailed", adminAuth, async (c) => {
    const env = c.env;
    const [database, storage, imageQueue, videoQueue, renderer] = await Promise.all([
      timed(async () => {
        await env.DB.prepare("SELECT 1").first();
      }),
      timed(async () => {
        await env.FILES.head("health-check");
      }),
      timed(async () => {
        await env.IMAGE_QUEUE.send({ kind: "ping", at: Date.now() });
      }),
      timed(async () => {
        await env.VIDEO_QUEUE.send({ kind: "ping", at: Date.now() });
      }),
      timed(async () => ({ ...(await rendererFor(env).health()) })),
    ]);
    const checks = { database, storage, queues: { image: imageQueue, video: videoQueue }, renderer };
    // The API itself stands on D1 and R2: without them it is unhealthy. Without the queues or the renderer
    // it still answers but cannot render: a warning.
    const core = [database, storage].every((x) => x.status === "healthy");
    const rendering = [imageQueue, videoQueue, renderer].every((x) => x.status === "healthy");
    const status = !core ? "unhealthy" : rendering ? "healthy" : "warning";
    return ok(c, { status, ...basics(env), checks }, status === "unhealthy" ? 503 : 200);
  });
