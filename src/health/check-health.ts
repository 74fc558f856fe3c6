/**
 * The service's health (GET /health/detailed): real checks of D1, R2, both queues and the renderer.
 */
import type { Ctx } from "../context.ts";
import type { Health } from "./schemas.ts";

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

export const basics = (env: Ctx["env"]): Omit<Health, "status"> => ({
  timestamp: new Date().toISOString(),
  service: env.SERVICE_NAME,
  version: env.SERVICE_VERSION,
  environment: env.ENVIRONMENT,
});

/** Every check; `status` is unhealthy without D1 or R2 (the API stands on them), a warning without rendering. */
export const detailedHealth = async (ctx: Ctx) => {
  const { env } = ctx;
  const [database, storage, imageQueue, videoQueue, renderer] = await Promise.all([
    timed(async () => {
      await ctx.d1.prepare("SELECT 1").first();
    }),
    timed(async () => {
      await env.FILES.head("health-check");
    }),
    timed(async () => {
      await env.IMAGE_QUEUE.send({ kind: "ping", at: ctx.now() });
    }),
    timed(async () => {
      await env.VIDEO_QUEUE.send({ kind: "ping", at: ctx.now() });
    }),
    timed(async () => ({ ...(await ctx.renderer.health()) })),
  ]);
  const checks = { database, storage, queues: { image: imageQueue, video: videoQueue }, renderer };
  const core = [database, storage].every((x) => x.status === "healthy");
  const rendering = [imageQueue, videoQueue, renderer].every((x) => x.status === "healthy");
  const status = !core ? ("unhealthy" as const) : rendering ? ("healthy" as const) : ("warning" as const);
  return { status, ...basics(env), checks };
};
