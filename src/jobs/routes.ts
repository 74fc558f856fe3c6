/**
 * /api/v1/jobs: thin handlers; the logic lives in the verb files.
 * queue-status is administrative (basic auth in production, no API key) and is registered before the
 * API-key middleware so that middleware never runs for it; fixed paths come before `/:jobId`.
 */
import { Hono } from "hono";
import * as v from "valibot";
import { callerCtx, requireKeyOrSession, requirePermission } from "../auth/api-key";
import type { AppEnv } from "../app-env";
import { adminAuth } from "../health/admin-auth";
import { sha256Hex } from "../contract/crypto";
import { answer, envelope, ok } from "../lib/envelope";
import { canonicalJson } from "../lib/canonical-json";
import { idempotencyKeyOf, idempotent } from "../lib/idempotency";
import { jsonBody, queryParams, readJson } from "../lib/validate";
import { cancelJob } from "./cancel-job";
import { createJob } from "./create-job";
import { getJob } from "./get-job";
import { jobStats, lastThirtyDays } from "./job-stats";
import { ListJobsQuery, listJobs } from "./list-jobs";
import { queueStatus } from "./queue-status";
import { validateJob } from "./validate-job";

/** Type and config are checked by validateJobConfig (so its codes and order apply); here only the body shape. */
const CreateJobBody = v.object({ type: v.unknown(), config: v.unknown() });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const jobRoutes = new Hono<AppEnv>()
  .get("/queue-status", adminAuth, async (c) => ok(c, await queueStatus(c.var.ctx)))
  .use(requireKeyOrSession, requirePermission("jobs"))
  .post("/", async (c) => {
    const ctx = callerCtx(c);
    const key = idempotencyKeyOf(c.req.header("idempotency-key"));
    const body = await jsonBody(c, CreateJobBody);
    const fingerprint = await sha256Hex(canonicalJson(body));
    const run = async () => ({
      answer: { status: 201, body: envelope(await createJob(ctx, body)) },
      fingerprint,
    });
    return answer(c, await idempotent(ctx, "jobs.create", key, run, async () => fingerprint));
  })
  .get("/", async (c) => ok(c, await listJobs(callerCtx(c), queryParams(c, ListJobsQuery))))
  .post("/validate", async (c) => {
    // Any JSON is a processed request: a body without type/config gets the same 200 result with its codes.
    const raw = await readJson(c);
    return ok(c, await validateJob(callerCtx(c), isObject(raw) ? raw : {}));
  })
  .get("/stats", async (c) => ok(c, await jobStats(callerCtx(c))))
  .get("/stats/last-30-days", async (c) => ok(c, await lastThirtyDays(callerCtx(c))))
  .get("/:jobId", async (c) => ok(c, await getJob(callerCtx(c), c.req.param("jobId"))))
  .delete("/:jobId", async (c) => ok(c, await cancelJob(callerCtx(c), c.req.param("jobId"))));
