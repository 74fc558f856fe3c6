/** GET /api/v2/batches/{id}: the batch, its job counts per state, progress and its jobs in row order. */
import type { CallerCtx } from "../context.ts";
import { JOB_STATUSES, type JobStatus } from "../db/schema.ts";
import { iso } from "../lib/time.ts";
import { getOwnedBatch, type BatchRow } from "./lookup.ts";
import type { Batch, BatchJob } from "./schemas.ts";

/** The batch's jobs in row order (scoped to the owner through the batch, and by user_id again). */
export const batchJobs = async (ctx: CallerCtx, batchId: string): Promise<BatchJob[]> =>
  (
    await ctx.d1
      .prepare(
        `SELECT batch_row AS row, batch_name AS name, id AS jobId, status, coalesce(progress, 0) AS progress,
           output_file_id AS outputFileId, error_message AS error
         FROM jobs WHERE batch_id = ?1 AND user_id = ?2 ORDER BY batch_row`,
      )
      .bind(batchId, ctx.caller.userId)
      .all<BatchJob>()
  ).results;

const FINAL: readonly JobStatus[] = ["COMPLETED", "FAILED", "CANCELLED"];

export const toBatch = (batch: BatchRow, jobs: readonly BatchJob[]): Batch => {
  const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;
  for (const job of jobs) counts[job.status]++;
  const done = jobs.reduce((sum, j) => sum + (FINAL.includes(j.status) ? 100 : j.progress), 0);
  return {
    id: batch.id,
    templateId: batch.templateId,
    status: batch.status,
    mode: batch.mode,
    nameColumn: batch.nameColumn,
    totalRows: batch.totalRows,
    accepted: jobs.length,
    rejected: batch.rejected.length,
    counts,
    progress: jobs.length ? Math.floor(done / jobs.length) : 100,
    jobs: [...jobs],
    createdAt: iso(batch.createdAt)!,
    endedAt: iso(batch.endedAt),
  };
};

export const getBatch = async (ctx: CallerCtx, id: string): Promise<Batch> => {
  const batch = await getOwnedBatch(ctx, id);
  return toBatch(batch, await batchJobs(ctx, id));
};
