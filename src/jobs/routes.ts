/**
 * /api/v1/jobs: thin handlers; the logic lives in the verb files.
 * queue-status is administrative (basic auth in production, no API key) and is registered before the
 * API-key middleware so that middleware never runs for it; fixed paths come before `/:jobId`.
 */
import { Hono } from "hono";
import * as v from "valibot";
import { callerCtx, requireKeyOrSession, requirePermission } from "../auth/api-key.ts";
import type { AppEnv } from "../app-env.ts";
import { adminAuth } from "../health/admin-auth.ts";
import { sha256Hex } from "@media-render/contract/crypto";
import { answer, envelope, ok } from "../lib/envelope.ts";
import { canonicalJson } from "../lib/canonical-json.ts";
import { idempotencyKeyOf, idempotent } from "../lib/idempotency.ts";
import { jsonBody, queryParams, readJson } from "../lib/validate.ts";
import { describe, PendingSchema, type RouteDoc } from "../lib/openapi-route.ts";
import { Destinations } from "../destinations/schemas.ts";
import { EXAMPLES } from "@media-render/contract/examples";
import { asQueryString, tool } from "../lib/route-tool.ts";
import { cancelJob } from "./cancel-job.ts";
import { createJob } from "./create-job.ts";
import { getJob } from "./get-job.ts";
import { jobEvents } from "./job-events.ts";
import { jobStats, lastThirtyDays } from "./job-stats.ts";
import { JSONCUT_CONFIG_TOOLS } from "./jsoncut-configs.ts";
import { ListJobsQuery, listJobs } from "./list-jobs.ts";
import { queueStatus } from "./queue-status.ts";
import {
  CallbackFields,
  DailyJobCounts,
  Job,
  JobCancelled,
  JobCreated,
  JobEvent,
  JobId,
  JobList,
  JobRequest,
  JobStats,
  JobValidation,
} from "./schemas.ts";
import { validateJob } from "./validate-job.ts";

/** The optional `webhookUrl` and `metadata` of a job request (their valibot schemas, converted with the document). */
const callbackProperties = Object.fromEntries(
  Object.entries(CallbackFields.entries).map(([name, schema]) => [name, new PendingSchema(schema, "input")]),
);

/** Either job type with its config schema (the JSON Schemas of /api/v1/schemas, from the same valibot schemas). */
const jobBody = {
  oneOf: (["image", "video"] as const).map((type) => ({
    type: "object",
    required: ["type", "config"],
    properties: {
      type: { const: type },
      config: { $ref: `#/components/schemas/${type === "image" ? "Image" : "Video"}Config` },
      ...callbackProperties,
      destinations: new PendingSchema(Destinations, "input"),
    },
  })),
};

const CREATE_DOC = {
  operationId: "createJob",
  tag: "Jobs",
  summary: "Create a render job",
  description:
    "Validates the config, imports public URL inputs, reserves the estimated tokens and queues the job. " +
    "`webhookUrl`: the job's render events are also posted there, signed with the account's job-callback secret " +
    "(GET /api/v2/webhooks/job-callbacks) and retried like webhook deliveries. `metadata`: your own JSON object, " +
    "echoed on the job and in every event. Send `Idempotency-Key` to make a retry safe: the same key and body within " +
    "24 h answer the first result.",
  body: { json: jobBody },
  bodyExample: EXAMPLES.imageJob,
  idempotent: true,
  ok: {
    status: 201,
    description:
      "`jobId`, `status: PENDING`, `type`, `estimatedTokens`, `createdAt`, `warnings` (`[{field, message, code}]`: properties accepted with no effect, code `IGNORED_PROPERTY`)",
    data: JobCreated,
    example: EXAMPLES.jobCreated,
  },
  errors: [402, 429],
  rateLimit: "job creation",
  mcp: {
    create_job: tool({
      description:
        "Create a render job (reserves its estimated tokens; warnings name properties accepted with no effect). " +
        "Follow it with get_job until status is COMPLETED, then get_download_link on its outputFileId. Optional " +
        "webhookUrl: the job's render events are also posted there, signed; optional metadata: your own small JSON " +
        "object, echoed on the job and in every event.",
      input: JobRequest,
      run: (ctx, input) => createJob(ctx, input),
    }),
  },
} satisfies RouteDoc;

const VALIDATE_DOC = {
  operationId: "validateJob",
  tag: "Jobs",
  summary: "Validate a job without creating it",
  description:
    "Always 200 for a JSON body: `isValid`, `errors`, `warnings` (`[{field, message, code}]`: properties accepted with no effect, code `IGNORED_PROPERTY`), `estimatedTokens`, `detectedResources`.",
  body: { json: jobBody },
  bodyExample: EXAMPLES.videoJob,
  ok: {
    status: 200,
    description: "The validation result",
    data: JobValidation,
    example: EXAMPLES.invalidJob,
  },
  rateLimit: "general",
  mcp: {
    validate_config: tool({
      description:
        "Check a job config without creating a job: isValid, field errors, warnings (properties accepted with no " +
        "effect), estimatedTokens, the stored files it uses. Text layers take catalogue fonts as googleFont " +
        '("Family" or "Family:weight"; catalogFont is an alias).',
      input: JobRequest,
      run: (ctx, input) => validateJob(ctx, input),
    }),
    ...JSONCUT_CONFIG_TOOLS,
  },
} satisfies RouteDoc;

const path = { jobId: JobId };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const jobRoutes = new Hono<AppEnv>()
  .get("/queue-status", adminAuth, async (c) => ok(c, await queueStatus(c.var.ctx)))
  .use(requireKeyOrSession, requirePermission("jobs"))
  .post("/", describe(CREATE_DOC), async (c) => {
    const ctx = callerCtx(c);
    const key = idempotencyKeyOf(c.req.header("idempotency-key"));
    const body = await jsonBody(c, JobRequest);
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
      operationId: "listJobs",
      tag: "Jobs",
      summary: "List your jobs",
      query: ListJobsQuery,
      ok: {
        status: 200,
        description: "`jobs` (list items, newest first by default) and `pagination`",
        data: JobList,
      },
      rateLimit: "general",
      mcp: {
        list_jobs: tool({
          description: "List your jobs, newest first, optionally by status or type.",
          input: ListJobsQuery,
          from: asQueryString,
          run: (ctx, query) => listJobs(ctx, query),
        }),
      },
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
      operationId: "getJobStats",
      tag: "Jobs",
      summary: "Job counts and tokens used",
      ok: { status: 200, description: "`total`, `totalTokensUsed`, `byStatus`, `byType`", data: JobStats },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await jobStats(callerCtx(c))),
  )
  .get(
    "/stats/last-30-days",
    describe({
      operationId: "getJobDailyCounts",
      tag: "Jobs",
      summary: "Completed and failed jobs per UTC day, last 30 days",
      ok: {
        status: 200,
        description: "30 entries, oldest first: `date`, `success`, `failed`",
        data: DailyJobCounts,
      },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await lastThirtyDays(callerCtx(c))),
  )
  .get(
    "/:jobId",
    describe({
      operationId: "getJob",
      tag: "Jobs",
      summary: "Read a job",
      description:
        "Status, config, output file, tokens, error, and `progress` (`percent`, `stage`) while it runs.",
      path,
      ok: { status: 200, description: "The job", data: Job },
      rateLimit: "general",
      mcp: {
        get_job: tool({
          description: "Read a job: status, progress, outputFileId, tokensUsed, errorMessage.",
          input: v.strictObject({ jobId: JobId }),
          run: (ctx, { jobId }) => getJob(ctx, jobId),
        }),
      },
    }),
    async (c) => ok(c, await getJob(callerCtx(c), c.req.param("jobId"))),
  )
  .get(
    "/:jobId/events",
    describe({
      operationId: "streamJobEvents",
      tag: "Jobs",
      summary: "Follow a job's progress (Server-Sent Events)",
      description:
        "`progress` events (`status`, `progress.percent`, `progress.stage`) whenever the job changes, then one " +
        "`done` event with the whole job when it ends, and the stream closes. A stream lasts at most 5 minutes; " +
        "EventSource reconnects by itself (the `retry` field says when) and gets the current state first. " +
        "Comment lines keep an idle stream open.",
      path,
      ok: {
        status: 200,
        description: "An event stream",
        content: {
          "text/event-stream": {
            schema: v.pipe(
              v.array(JobEvent),
              v.description(
                "The stream as the sequence of its events: each `event:` name and its JSON `data:`",
              ),
            ),
          },
        },
      },
      rateLimit: "event stream",
      mcp: false,
    }),
    jobEvents,
  )
  .delete(
    "/:jobId",
    describe({
      operationId: "cancelJob",
      tag: "Jobs",
      summary: "Cancel a pending job",
      description: "Releases its reserved tokens. A job in any other state answers 400.",
      path,
      ok: { status: 200, description: "`id`, `status: CANCELLED`, `updatedAt`", data: JobCancelled },
      errors: [400],
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await cancelJob(callerCtx(c), c.req.param("jobId"))),
  );
