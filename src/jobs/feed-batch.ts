/**
 * Fair scheduling of batch jobs. A batch opens all its jobs at once (reserved, PENDING) but queues at most
 * `feed_window` of them at a time (the plan's concurrent-job limit); each time one of its jobs settles, the next
 * ones are queued. So a 5,000-row batch never puts more than a handful of messages ahead of another account's
 * job in the render queues, and a batch cannot starve anyone. Claims are one guarded UPDATE ... RETURNING, so
 * two jobs settling at once never queue the same job twice nor overfill the window.
 *
 * This module must not import the lifecycle (which calls it): cancelling lives in cancel-batch.ts.
 */
import type { Ctx } from "../context.ts";
import type { JobType } from "../db/schema.ts";
import { batchEnded } from "./batch-ended.ts";

const OPEN = "('PENDING', 'PROCESSING')";

/** Queues the batch's next jobs, up to its window; returns how many it queued. */
export const feedBatch = async (ctx: Ctx, batchId: string): Promise<number> => {
  const at = ctx.now();
  const claimed = await ctx.d1
    .prepare(
      `UPDATE jobs SET queued_at = ?2, updated_at = ?2
       WHERE id IN (
         SELECT j.id FROM jobs j JOIN batches b ON b.id = j.batch_id
         WHERE j.batch_id = ?1 AND j.status = 'PENDING' AND j.queued_at IS NULL AND b.status = 'RUNNING'
         ORDER BY j.batch_row
         LIMIT max(0, (SELECT feed_window FROM batches WHERE id = ?1)
           - (SELECT count(*) FROM jobs WHERE batch_id = ?1 AND queued_at IS NOT NULL AND status IN ${OPEN})))
       RETURNING id, user_id AS userId, type`,
    )
    .bind(batchId, at)
    .all<{ id: string; userId: string; type: JobType }>();
  const rows = claimed.results;
  if (!rows.length) return 0;
  try {
    for (const type of ["IMAGE", "VIDEO"] as const) {
      const messages = rows
        .filter((r) => r.type === type)
        .map((r) => ({ body: { kind: "render" as const, jobId: r.id, userId: r.userId } }));
      if (messages.length)
        await (type === "IMAGE" ? ctx.env.IMAGE_QUEUE : ctx.env.VIDEO_QUEUE).sendBatch(messages);
    }
  } catch (e) {
    // Not queued after all: give the claims back so the next settlement (or the cron) queues them.
    await ctx.d1
      .prepare(
        `UPDATE jobs SET queued_at = NULL WHERE batch_id = ?1 AND status = 'PENDING'
           AND id IN (SELECT value FROM json_each(?2))`,
      )
      .bind(batchId, JSON.stringify(rows.map((r) => r.id)))
      .run();
    throw e;
  }
  return rows.length;
};

/**
 * A running batch whose jobs are all final becomes COMPLETED, once (guarded by its status): then batchEnded runs.
 */
export const completeIfDone = async (ctx: Ctx, batchId: string): Promise<boolean> => {
  const at = ctx.now();
  const res = await ctx.d1
    .prepare(
      `UPDATE batches SET status = 'COMPLETED', ended_at = ?2, updated_at = ?2
       WHERE id = ?1 AND status = 'RUNNING'
         AND NOT EXISTS (SELECT 1 FROM jobs WHERE batch_id = ?1 AND status IN ${OPEN})`,
    )
    .bind(batchId, at)
    .run();
  if (res.meta.changes !== 1) return false;
  await batchEnded(ctx, batchId);
  return true;
};

/** Called by the lifecycle after a job of `batchId` settled: queue the next jobs, or end the batch. */
export const batchJobSettled = async (ctx: Ctx, batchId: string): Promise<void> => {
  await feedBatch(ctx, batchId);
  await completeIfDone(ctx, batchId);
};

/** Cron: re-feeds running batches (a lost send, a window freed by a cancelled job). Bounded per run. */
export const feedRunningBatches = async (ctx: Ctx): Promise<number> => {
  const running = await ctx.d1
    .prepare("SELECT id FROM batches WHERE status = 'RUNNING' ORDER BY updated_at LIMIT 100")
    .all<{ id: string }>();
  let queued = 0;
  for (const { id } of running.results) {
    queued += await feedBatch(ctx, id).catch(() => 0);
    await completeIfDone(ctx, id);
  }
  return queued;
};
