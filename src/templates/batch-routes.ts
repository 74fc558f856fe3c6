/**
 * /api/v2/batches: a template batch's status, cancellation, ZIP of outputs and manifest (batches are submitted at
 * POST /api/v2/templates/{id}/batches, routes.ts). Thin handlers; the logic lives in the verb files. Every route takes
 * an API key or a session and then the v2 scope the spec gives it (src/auth/scopes.ts).
 */
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../app-env.ts";
import { callerCtx, requireKeyOrSession } from "../auth/api-key.ts";
import { requireScope } from "../auth/scopes.ts";
import { describe } from "../lib/openapi-route.ts";
import { tool } from "../lib/route-tool.ts";
import { ok } from "../lib/envelope.ts";
import { queryParams } from "../lib/validate.ts";
import { batchManifest, batchZip, manifestCsv } from "./batch-output.ts";
import { getBatch } from "./batch-status.ts";
import { cancelBatch } from "./cancel-batch.ts";
import { listBatches, ListBatchesQuery } from "./list-batches.ts";
import { Batch, BatchId, BatchList, BatchManifest, ManifestQuery } from "./schemas.ts";

export const batchRoutes = new Hono<AppEnv>()
  .use(requireKeyOrSession)
  .get(
    "/",
    describe({
      operationId: "listBatches",
      tag: "Templates",
      summary: "List your batches",
      description:
        "Newest first, `page` and `limit` (1-100, default 20), optionally `templateId` and `status` (RUNNING, " +
        "COMPLETED, CANCELLED). Each batch without its jobs (GET /api/v2/batches/{id} has them).",
      query: ListBatchesQuery,
      ok: { status: 200, description: "`batches` and `pagination`", data: BatchList },
      rateLimit: "general",
      mcp: false,
    }),
    requireScope("operations:read"),
    async (c) => ok(c, await listBatches(callerCtx(c), queryParams(c, ListBatchesQuery))),
  )
  .get(
    "/:id",
    describe({
      operationId: "getBatch",
      path: { id: BatchId },
      tag: "Templates",
      summary: "Read a batch",
      description: "Status, job counts per state, `progress` (0-100) and the jobs in row order.",
      ok: { status: 200, description: "The batch", data: Batch },
      rateLimit: "general",
      mcp: {
        get_batch: tool({
          description: "Read a template batch: status, counts per job state, progress and its jobs.",
          input: v.strictObject({ batchId: BatchId }),
          run: (ctx, { batchId }) => getBatch(ctx, batchId),
        }),
      },
    }),
    requireScope("operations:read"),
    async (c) => ok(c, await getBatch(callerCtx(c), c.req.param("id"))),
  )
  .delete(
    "/:id",
    describe({
      operationId: "cancelBatch",
      path: { id: BatchId },
      tag: "Templates",
      summary: "Cancel a batch",
      description: "Jobs not yet started are cancelled and their reserves released; started ones finish.",
      ok: { status: 200, description: "The batch", data: Batch },
      errors: [400],
      rateLimit: "general",
      mcp: false,
    }),
    requireScope("operations:cancel"),
    async (c) => ok(c, await cancelBatch(callerCtx(c), c.req.param("id"))),
  )
  .get(
    "/:id/output",
    describe({
      operationId: "downloadBatchOutput",
      path: { id: BatchId },
      tag: "Templates",
      summary: "Download a finished batch's outputs as one ZIP",
      description:
        "Streamed; entries named by the batch's `nameColumn` (else `row-<n>`). Outputs expire like job outputs " +
        "(7 days): expired ones are left out; 410 when none is left.",
      ok: {
        status: 200,
        description: "A ZIP archive, streamed",
        content: { "application/zip": { schema: { type: "string", contentMediaType: "application/zip" } } },
      },
      errors: [409, 410],
      rateLimit: "general",
      mcp: false,
    }),
    requireScope("templates:bulk"),
    (c) => batchZip(callerCtx(c), c.req.param("id")),
  )
  .get(
    "/:id/manifest",
    describe({
      operationId: "getBatchManifest",
      path: { id: BatchId },
      tag: "Templates",
      summary: "The batch's manifest: row, job, file, status",
      description: "`format=json` (default) or `format=csv`; rejected rows included with their errors.",
      query: ManifestQuery,
      ok: {
        status: 200,
        description: "`entries` (JSON), or the same as CSV",
        data: BatchManifest,
        content: {
          "text/csv": {
            schema: {
              type: "string",
              description:
                "A header row `row,name,jobId,status,fileId,zipEntry,error`, then one row per entry",
            },
          },
        },
      },
      rateLimit: "general",
      mcp: false,
    }),
    requireScope("templates:bulk"),
    async (c) => {
      const { format } = queryParams(c, ManifestQuery);
      const manifest = await batchManifest(callerCtx(c), c.req.param("id"));
      if (format === "json") return ok(c, manifest);
      return c.body(manifestCsv(manifest.entries), 200, {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${manifest.batchId}-manifest.csv"`,
      });
    },
  );
