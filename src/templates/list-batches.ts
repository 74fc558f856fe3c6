/**
 * GET /api/v2/batches: the caller's batches, newest first, a page at a time, optionally of one template and in one
 * status. A listed batch is its summary (counts and progress, not its jobs: a batch may have 5,000 of them; GET
 * /api/v2/batches/{id} has them). The page's job counts come from one grouped query over its batches' jobs.
 */
import { and, count, desc, eq, type SQL } from "drizzle-orm";
import * as v from "valibot";
import type { CallerCtx } from "../context.ts";
import { BATCH_STATUSES, batches, JOB_STATUSES, type JobStatus } from "../db/schema.ts";
import { iso } from "../lib/time.ts";
import { pageParam } from "../jobs/list-jobs.ts";
import type { BatchList } from "./schemas.ts";

export const ListBatchesQuery = v.strictObject(
  {
    page: pageParam("page", 1, 1_000_000, 1),
    limit: pageParam("limit", 1, 100, 20),
    templateId: v.optional(
      v.pipe(v.string(), v.maxLength(64), v.description("Only the batches of this template (tpl_...)")),
    ),
    status: v.optional(
      v.pipe(
        v.string(),
        v.description(`${BATCH_STATUSES.join(", ")} (any letter case)`),
        v.transform((s) => s.toUpperCase()),
        v.picklist(BATCH_STATUSES, `status must be one of ${BATCH_STATUSES.join(", ")}`),
      ),
    ),
  },
  (issue) => `Unknown query parameter "${String(issue.input)}" (page, limit, templateId, status)`,
);
export type ListBatchesQuery = v.InferOutput<typeof ListBatchesQuery>;

const FINAL: readonly JobStatus[] = ["COMPLETED", "FAILED", "CANCELLED"];

export const listBatches = async (ctx: CallerCtx, query: ListBatchesQuery): Promise<BatchList> => {
  const { db } = ctx;
  const filters: SQL[] = [eq(batches.userId, ctx.caller.userId)];
  if (query.templateId) filters.push(eq(batches.templateId, query.templateId));
  if (query.status) filters.push(eq(batches.status, query.status));
  const where = and(...filters);
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(batches)
      .where(where)
      .orderBy(desc(batches.createdAt), desc(batches.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(batches).where(where),
  ]);
  // The page's job counts per batch and status, and their progress, in one query (jobs_batch_row_idx).
  const { results } = await ctx.d1
    .prepare(
      `SELECT batch_id AS batchId, status, count(*) AS n, sum(coalesce(progress, 0)) AS progress
       FROM jobs WHERE user_id = ?1 AND batch_id IN (SELECT value FROM json_each(?2))
       GROUP BY batch_id, status`,
    )
    .bind(ctx.caller.userId, JSON.stringify(rows.map((r) => r.id)))
    .all<{ batchId: string; status: JobStatus; n: number; progress: number }>();
  const totalCount = total?.n ?? 0;
  const totalPages = Math.ceil(totalCount / query.limit);
  return {
    batches: rows.map((batch) => {
      const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;
      let jobs = 0;
      let done = 0;
      for (const group of results.filter((x) => x.batchId === batch.id)) {
        counts[group.status] = group.n;
        jobs += group.n;
        done += FINAL.includes(group.status) ? 100 * group.n : group.progress;
      }
      return {
        id: batch.id,
        templateId: batch.templateId,
        status: batch.status,
        mode: batch.mode,
        nameColumn: batch.nameColumn,
        totalRows: batch.totalRows,
        accepted: jobs,
        rejected: batch.rejected.length,
        counts,
        progress: jobs ? Math.floor(done / jobs) : 100,
        createdAt: iso(batch.createdAt)!,
        endedAt: iso(batch.endedAt),
      };
    }),
    pagination: {
      page: query.page,
      limit: query.limit,
      totalCount,
      totalPages,
      hasNextPage: query.page < totalPages,
      hasPrevPage: query.page > 1,
    },
  };
};
