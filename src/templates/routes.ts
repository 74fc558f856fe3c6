/**
 * /api/v2/templates: templates, a single render of one, and the submission of a batch (whose own routes, under
 * /api/v2/batches, are batch-routes.ts). Thin handlers; the logic lives in the verb files. Every route takes an API
 * key or a session and then the v2 scope the spec gives it (src/auth/scopes.ts).
 */
import { Hono, type Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../app-env.ts";
import { callerCtx, requireKeyOrSession } from "../auth/api-key.ts";
import { requireScope } from "../auth/scopes.ts";
import { sha256Hex } from "@media-render/contract/crypto";
import { describe } from "../lib/openapi-route.ts";
import { tool } from "../lib/route-tool.ts";
import { readTextBounded } from "../lib/body.ts";
import { canonicalJson } from "../lib/canonical-json.ts";
import { answer, Deleted, envelope, ok } from "../lib/envelope.ts";
import { UnsupportedMediaType } from "../lib/errors.ts";
import { idempotencyKeyOf, idempotent } from "../lib/idempotency.ts";
import { isJsonType, jsonBody, parseJsonText, parseOrThrow, queryParams } from "../lib/validate.ts";
import { createBatch } from "./create-batch.ts";
import { getOwnedTemplate, toTemplate } from "./lookup.ts";
import { batchLimitsOf, type BatchLimits } from "./limits.ts";
import { RenderBody, renderTemplate } from "./render-template.ts";
import { JobCreated } from "../jobs/schemas.ts";
import { parseCsvRows } from "./parse-csv.ts";
import {
  BatchBody,
  BatchCreated,
  BatchOptions,
  Template,
  TemplateBody,
  TemplateId,
  TemplateList,
} from "./schemas.ts";
import { createTemplate, deleteTemplate, listTemplates, updateTemplate } from "./save-template.ts";

export const templateRoutes = new Hono<AppEnv>()
  .use(requireKeyOrSession)
  .get(
    "/",
    describe({
      operationId: "listTemplates",
      tag: "Templates",
      summary: "List your templates",
      ok: { status: 200, description: "`templates`, newest first", data: TemplateList },
      rateLimit: "general",
      mcp: false,
    }),
    requireScope("templates:read"),
    async (c) => ok(c, await listTemplates(callerCtx(c))),
  )
  .post(
    "/",
    describe({
      operationId: "createTemplate",
      tag: "Templates",
      summary: "Create a template",
      description:
        "A job config with `{{name}}` placeholders in any string, and optionally `variables` declaring each one's " +
        "type (`string`, `number`, `colour`, `file`), `required` and `default`; undeclared placeholders are derived " +
        "(string, required). The template is validated now, with sample values standing in for the variables.",
      body: TemplateBody,
      ok: { status: 201, description: "The template with its variable schema", data: Template },
      rateLimit: "general",
      mcp: false,
    }),
    requireScope("templates:write"),
    async (c) => ok(c, await createTemplate(callerCtx(c), await jsonBody(c, TemplateBody)), 201),
  )
  .get(
    "/:id",
    describe({
      operationId: "getTemplate",
      path: { id: TemplateId },
      tag: "Templates",
      summary: "Read a template",
      ok: { status: 200, description: "The template", data: Template },
      rateLimit: "general",
      mcp: false,
    }),
    requireScope("templates:read"),
    async (c) => ok(c, toTemplate(await getOwnedTemplate(callerCtx(c), c.req.param("id")))),
  )
  .put(
    "/:id",
    describe({
      operationId: "replaceTemplate",
      path: { id: TemplateId },
      tag: "Templates",
      summary: "Replace a template",
      description: "Validated like a new one; batches already submitted keep their jobs' configs.",
      body: TemplateBody,
      ok: { status: 200, description: "The template", data: Template },
      rateLimit: "general",
      mcp: false,
    }),
    requireScope("templates:write"),
    async (c) => {
      const ctx = callerCtx(c);
      // Another account's template is a 404 whatever the body holds (the body is read after).
      await getOwnedTemplate(ctx, c.req.param("id"));
      return ok(c, await updateTemplate(ctx, c.req.param("id"), await jsonBody(c, TemplateBody)));
    },
  )
  .delete(
    "/:id",
    describe({
      operationId: "deleteTemplate",
      path: { id: TemplateId },
      tag: "Templates",
      summary: "Delete a template",
      ok: { status: 200, description: "`id`, `deleted`", data: Deleted },
      rateLimit: "general",
      mcp: false,
    }),
    requireScope("templates:write"),
    async (c) => ok(c, await deleteTemplate(callerCtx(c), c.req.param("id"))),
  )
  .post(
    "/:id/renders",
    describe({
      operationId: "renderTemplate",
      path: { id: TemplateId },
      tag: "Templates",
      summary: "Render a template once",
      description:
        "`{ variables, webhookUrl?, metadata?, destinations? }`: the variables are merged as a batch row's are (the same types, " +
        "defaults, conditions and errors, fields `variables.<name>`), then one job is created as POST /api/v1/jobs " +
        "creates it and answered the same way (402, 429 and `Idempotency-Key` included). Counts against job " +
        "creation's rate limit.",
      body: RenderBody,
      idempotent: true,
      ok: {
        status: 201,
        description: "`jobId`, `status: PENDING`, `type`, `estimatedTokens`, `createdAt`, `warnings`",
        data: JobCreated,
      },
      errors: [402, 429],
      // It creates a job as POST /api/v1/jobs does, and counts as one.
      rateLimit: "job creation",
      mcp: {
        render_template: tool({
          description:
            "Render one of your saved templates once (POST /api/v2/templates/{id}/renders): variables by name (their " +
            "types, defaults and conditions as in a batch row), optional webhookUrl and metadata as create_job. " +
            "Answers like create_job; follow it with get_job.",
          input: v.strictObject({ templateId: TemplateId, ...RenderBody.entries }),
          run: (ctx, input) => renderTemplate(ctx, input),
        }),
      },
    }),
    requireScope("renders:create"),
    async (c) => {
      const ctx = callerCtx(c);
      const key = idempotencyKeyOf(c.req.header("idempotency-key"));
      const templateId = c.req.param("id");
      // Another account's template is a 404 whatever the body holds (the body is read after).
      await getOwnedTemplate(ctx, templateId);
      const body = await jsonBody(c, RenderBody);
      const fingerprint = await sha256Hex(canonicalJson({ templateId, ...body }));
      const run = async () => ({
        answer: { status: 201, body: envelope(await renderTemplate(ctx, { templateId, ...body })) },
        fingerprint,
      });
      return answer(c, await idempotent(ctx, "templates.render", key, run, async () => fingerprint));
    },
  )
  .post(
    "/:id/batches",
    describe({
      operationId: "createBatch",
      path: { id: TemplateId },
      tag: "Templates",
      summary: "Submit a batch of rows",
      description:
        "JSON `{ rows: [{column: value}], mode?, nameColumn? }` or a `text/csv` body (header row; `mode` and " +
        "`nameColumn` in the query). Every row is merged and validated before anything is charged: " +
        "`all-or-nothing` (default) refuses the batch if any row is bad, `valid-only` opens the good rows and lists " +
        "the others. Errors carry `row` (1-based, header excluded) and `field`. Rows and bytes are bounded per plan " +
        "(free 100 rows / 256 KiB, pro 1,000 / 2 MiB, business 5,000 / 8 MiB), columns to 200. A video batch is " +
        "refused (429) while the account's failed renders are over their daily quota, like a video job. " +
        "`Idempotency-Key` makes a retry safe.",
      body: BatchBody,
      bodyAlso: {
        "text/csv": {
          schema: { type: "string", description: "A header row of variable names, then one row per job" },
        },
      },
      query: BatchOptions,
      idempotent: true,
      ok: {
        status: 201,
        description: "`batchId`, `accepted`, `rejected` rows with their errors, `estimatedTokens`",
        data: BatchCreated,
      },
      errors: [402, 429],
      rateLimit: "general",
      mcp: {
        run_template_batch: tool({
          description:
            "Render one of your templates once per row (POST /api/v2/templates/{id}/batches): every row is validated " +
            "before anything is charged. Follow it with get_batch; the ZIP is at /api/v2/batches/{batchId}/output.",
          input: v.strictObject({ templateId: TemplateId, ...BatchBody.entries }),
          run: async (ctx, input) => createBatch(ctx, input, await batchLimitsOf(ctx)),
        }),
      },
    }),
    requireScope("templates:bulk"),
    async (c) => {
      const ctx = callerCtx(c);
      const key = idempotencyKeyOf(c.req.header("idempotency-key"));
      const templateId = c.req.param("id");
      // Another account's template is a 404 whatever the body holds (the body is read after).
      await getOwnedTemplate(ctx, templateId);
      const limits = await batchLimitsOf(ctx);
      const input = await readBatch(c, limits);
      const fingerprint = await sha256Hex(canonicalJson({ templateId, ...input }));
      const run = async () => ({
        answer: { status: 201, body: envelope(await createBatch(ctx, { templateId, ...input }, limits)) },
        fingerprint,
      });
      return answer(c, await idempotent(ctx, "batches.create", key, run, async () => fingerprint));
    },
  );

/** The batch's rows and options from a JSON or CSV body, read within the plan's byte limit. */
const readBatch = async (c: Context<AppEnv>, limits: BatchLimits) => {
  const type = c.req.header("content-type") ?? "";
  if (/^text\/csv\b/i.test(type)) {
    const options = queryParams(c, BatchOptions);
    const rows = parseCsvRows(await readTextBounded(c.req.raw, limits.bytes), limits.rows);
    return { rows: rows as Record<string, unknown>[], ...options };
  }
  if (!isJsonType(type)) throw new UnsupportedMediaType("Content-Type must be application/json or text/csv");
  const raw = parseJsonText(await readTextBounded(c.req.raw, limits.bytes));
  return parseOrThrow(BatchBody, raw);
};
