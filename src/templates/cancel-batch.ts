/**
 * DELETE /api/v2/batches/{id}: a running batch becomes CANCELLED (guarded, so once), its jobs still waiting
 * (PENDING, queued or not) are cancelled through the lifecycle with their whole reserve released, and jobs a
 * renderer already took finish on their own. The feeder queues nothing more for a cancelled batch.
 */
import type { CallerCtx } from "../context.ts";
import { finishJobs } from "../jobs/lifecycle.ts";
import { InvalidState } from "../lib/errors.ts";
import { batchEnded } from "../jobs/batch-ended.ts";
import { getBatch } from "./batch-status.ts";
import { getOwnedBatch } from "./lookup.ts";
import type { Batch } from "./schemas.ts";

const CHUNK = 50;

export const cancelBatch = async (ctx: CallerCtx, id: string): Promise<Batch> => {
  const batch = await getOwnedBatch(ctx, id);
  const at = ctx.now();
  const res = await ctx.d1
    .prepare(
      `UPDATE batches SET status = 'CANCELLED', ended_at = ?3, updated_at = ?3
       WHERE id = ?1 AND user_id = ?2 AND status = 'RUNNING'`,
    )
    .bind(id, ctx.caller.userId, at)
    .run();
  if (res.meta.changes !== 1)
    throw new InvalidState(`Only a RUNNING batch can be cancelled; this batch is ${batch.status}`, {
      status: batch.status,
    });
  for (;;) {
    const pending = await ctx.d1
      .prepare(
        `SELECT id, user_id AS userId, tokens_reserved AS tokensReserved, reserved_prepaid AS reservedPrepaid
         FROM jobs WHERE batch_id = ?1 AND user_id = ?2 AND status = 'PENDING' ORDER BY batch_row LIMIT ${CHUNK}`,
      )
      .bind(id, ctx.caller.userId)
      .all<{ id: string; userId: string; tokensReserved: number; reservedPrepaid: number }>();
    const jobs = pending.results;
    if (!jobs.length) break;
    const moved = await finishJobs(
      ctx,
      jobs,
      { status: "CANCELLED", reason: "batch cancelled by the user" },
      ["PENDING"],
    );
    if (jobs.length < CHUNK || moved === 0) break;
  }
  await batchEnded(ctx, id);
  return getBatch(ctx, id);
};
