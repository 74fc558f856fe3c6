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
import { describe, type RouteDoc } from "../docs/describe";
import { EXAMPLES } from "../docs/examples";
import { cancelJob } from "./cancel-job";
import { createJob } from "./create-job";
import { getJob } from "./get-job";
import { jobEvents } from "./job-events";
import { jobStats, lastThirtyDays } from "./job-stats";
import { ListJobsQuery, listJobs } from "./list-jobs";
import { queueStatus } from "./queue-status";
import { validateJob } from "./validate-job";

/** Type and config are checked by validateJobConfig (so its codes and order apply); here only the body shape. */
const CreateJobBody = v.object({ type: v.unknown(), config: v.unknown() });

/** Either job type with its config schema (the JSON Schemas of /api/v1/schemas, from the same valibot schemas). */
const jobBody = {
  oneOf: (["image", "video"] as const).map((type) => ({
    type: "object",
    required: ["type", "config"],
    properties: {
      type: { const: type },
      config: { $ref: `#/components/schemas/${type === "image" ? "Image" : "Video"}Config` },
    },
  })),
};

const CREATE_DOC = {
  tag: "Jobs",
  summary: "Create a render job",
  description:
    "Validates the config, imports public URL inputs, reserves the estimated tokens and queues the job. " +
    "Send `Idempotency-Key` to make a retry safe: the same key and body within 24 h answer the first result.",
  body: { json: jobBody },
  bodyExample: EXAMPLES.imageJob,
  ok: {
    status: 201,
    description:
      "`jobId`, `status: PENDING`, `type`, `estimatedTokens`, `createdAt`, `warnings` (`[{field, message, code}]`: properties accepted with no effect, code `IGNORED_PROPERTY`)",
  },
  errors: [400, 402, 409, 413, 415],
} satisfies RouteDoc;

const VALIDATE_DOC = {
  tag: "Jobs",
  summary: "Validate a job without creating it",
  description:
    "Always 200 for a JSON body: `isValid`, `errors`, `warnings` (`[{field, message, code}]`: properties accepted with no effect, code `IGNORED_PROPERTY`), `estimatedTokens`, `detectedResources`.",
  body: { json: jobBody },
  bodyExample: EXAMPLES.videoJob,
  ok: { status: 200, description: "The validation result" },
  errors: [400, 413, 415],
} satisfies RouteDoc;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const jobRoutes = new Hono<AppEnv>()
  .get("/queue-status", adminAuth, async (c) => ok(c, await queueStatus(c.var.ctx)))
  .use(requireKeyOrSession, requirePermission("jobs"))
  .post("/", describe(CREATE_DOC), async (c) => {
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
  .get(
    "/",
    describe({
      tag: "Jobs",
      summary: "List your jobs",
      query: ListJobsQuery,
      ok: { status: 200, description: "`jobs` (list items, newest first by default) and `pagination`" },
      errors: [400],
    }),
    async (c) => ok(c, await listJobs(callerCtx(c), queryParams(c, ListJobsQuery))),
  )
  .post("/validate", describe(VALIDATE_DOC), async (c) => {
    // Any JSON is a processed request: a body without type/config gets the same 200 result with its codes.
    const raw = await readJson(c);
    return ok(c, await validateJob(callerCtx(c), isObject(raw) ? raw : {}));
  })
  .get(
    "/stats",
    describe({
      tag: "Jobs",
      summary: "Job counts and tokens used",
      ok: { status: 200, description: "`total`, `totalTokensUsed`, `byStatus`, `byType`" },
    }),
    async (c) => ok(c, await jobStats(callerCtx(c))),
  )
  .get(
    "/stats/last-30-days",
    describe({
      tag: "Jobs",
      summary: "Completed and failed jobs per UTC day, last 30 days",
      ok: { status: 200, description: "30 entries, oldest first: `date`, `success`, `failed`" },
    }),
    async (c) => ok(c, await lastThirtyDays(callerCtx(c))),
  )
  .get(
    "/:jobId",
    describe({
      tag: "Jobs",
      summary: "Read a job",
      description:
        "Status, config, output file, tokens, error, and `progress` (`percent`, `stage`) while it runs.",
      ok: { status: 200, description: "The job" },
      errors: [404],
    }),
    async (c) => ok(c, await getJob(callerCtx(c), c.req.param("jobId"))),
  )
  .get(
    "/:jobId/events",
    describe({
      tag: "Jobs",
      summary: "Follow a job's progress (Server-Sent Events)",
      description:
        "`progress` events (`status`, `progress.percent`, `progress.stage`) whenever the job changes, then one " +
        "`done` event with the whole job when it ends, and the stream closes. A stream lasts at most 5 minutes; " +
        "EventSource reconnects by itself and gets the current state first.",
      ok: { status: 200, description: "An event stream" },
      produces: "text/event-stream",
      errors: [404],
    }),
    jobEvents,
  )
  .delete(
    "/:jobId",
    describe({
      tag: "Jobs",
      summary: "Cancel a pending job",
      description: "Releases its reserved tokens. A job in any other state answers 400.",
      ok: { status: 200, description: "`id`, `status: CANCELLED`, `updatedAt`" },
      errors: [400, 404],
    }),
    async (c) => ok(c, await cancelJob(callerCtx(c), c.req.param("jobId"))),
  );
