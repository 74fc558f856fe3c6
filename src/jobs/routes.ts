/** /api/v1/jobs: thin handlers; the logic lives in the verb files. */
import { Hono } from "hono";
import * as v from "valibot";
import { requireApiKey, requirePermission } from "../auth/api-key";
import { getDb } from "../db/client";
import type { AppEnv } from "../env";
import { ok } from "../lib/envelope";
import { jsonBody } from "../lib/validate";
import { createJob } from "./create-job";
import { getOwnedJob } from "./internal";
import { toJob } from "./serialize";

/** Type and config are checked by validateJobConfig (so its codes and order apply); here only the body shape. */
const CreateJobBody = v.object({ type: v.unknown(), config: v.unknown() });

export const jobRoutes = new Hono<AppEnv>()
  .use(requireApiKey, requirePermission("jobs"))
  .post("/", async (c) => {
    const body = await jsonBody(c, CreateJobBody);
    return ok(c, await createJob({ env: c.env, userId: c.var.auth.userId, input: body }), 201);
  })
  .get("/:jobId", async (c) =>
    ok(c, toJob(await getOwnedJob(getDb(c.env.DB), c.var.auth.userId, c.req.param("jobId")))),
  );
