/**
 * /api/v1/jobs: thin handlers; the logic lives in the verb files.
 * queue-status is administrative (basic auth in production, no API key) and is registered before the
 * API-key middleware so that middleware never runs for it; fixed paths come before `/:jobId`.
 */
import { Hono } from "hono";
import * as v from "valibot";
import { requireApiKey, requirePermission } from "../auth/api-key";
import { getDb } from "../db/client";
import type { AppEnv } from "../env";
import { adminAuth } from "../health/admin-auth";
import { ok } from "../lib/envelope";
import { jsonBody, queryParams, readJson } from "../lib/validate";
import { cancelJob } from "./cancel-job";
import { createJob } from "./create-job";
import { getOwnedJob } from "./internal";
import { jobStats, lastThirtyDays } from "./job-stats";
import { ListJobsQuery, listJobs } from "./list-jobs";
import { queueStatus } from "./queue-status";
import { toJob } from "./serialize";
import { validateJob } from "./validate-job";

/** Type and config are checked by validateJobConfig (so its codes and order apply); here only the body shape. */
const CreateJobBody = v.object({ type: v.unknown(), config: v.unknown() });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const jobRoutes = new Hono<AppEnv>()
  .get("/queue-status", adminAuth, async (c) => ok(c, await queueStatus(c.env.DB)))
  .use(requireApiKey, requirePermission("jobs"))
  .post("/", async (c) => {
    const body = await jsonBody(c, CreateJobBody);
    return ok(c, await createJob({ env: c.env, userId: c.var.auth.userId, input: body }), 201);
  })
  .get("/", async (c) =>
    ok(
      c,
      await listJobs({
        db: getDb(c.env.DB),
        userId: c.var.auth.userId,
        query: queryParams(c, ListJobsQuery),
      }),
    ),
  )
  .post("/validate", async (c) => {
    // Any JSON is a processed request: a body without type/config gets the same 200 result with its codes.
    const raw = await readJson(c);
    const input = isObject(raw) ? raw : {};
    return ok(c, await validateJob({ db: getDb(c.env.DB), userId: c.var.auth.userId, input }));
  })
  .get("/stats", async (c) => ok(c, await jobStats(c.env.DB, c.var.auth.userId)))
  .get("/stats/last-30-days", async (c) => ok(c, await lastThirtyDays(c.env.DB, c.var.auth.userId)))
  .get("/:jobId", async (c) =>
    ok(c, toJob(await getOwnedJob(getDb(c.env.DB), c.var.auth.userId, c.req.param("jobId")))),
  )
  .delete("/:jobId", async (c) =>
    ok(
      c,
      await cancelJob({
        db: getDb(c.env.DB),
        d1: c.env.DB,
        userId: c.var.auth.userId,
        jobId: c.req.param("jobId"),
      }),
    ),
  );
