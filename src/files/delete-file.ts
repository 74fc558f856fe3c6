/**
 * DELETE /api/v1/files/{id}: removes the R2 object, then the row. A file that an open (PENDING or
 * PROCESSING) job reads is refused with 400 until the job finishes: the renderer fetches inputs late.
 */
import type { CallerCtx } from "../context.ts";
import type { Deleted } from "../lib/envelope.ts";
import { InvalidState } from "../lib/errors.ts";
import { findFile } from "./lookup.ts";

export const deleteFile = async (ctx: CallerCtx, id: string): Promise<Deleted> => {
  const userId = ctx.caller.userId;
  const row = await findFile(ctx, id, userId);
  const job = await ctx.d1
    .prepare(
      `SELECT j.id FROM jobs j, json_each(j.input_file_ids) f
     WHERE j.user_id = ?1 AND j.status IN ('PENDING', 'PROCESSING') AND f.value = ?2 LIMIT 1`,
    )
    .bind(userId, id)
    .first<{ id: string }>();
  if (job)
    throw new InvalidState(
      `File is an input of job ${job.id}, which is still open; delete it once the job has finished`,
      { jobId: job.id },
    );
  // Object first: should the row delete fail, the row still expires and the cron retries; the reverse
  // order could leave an object that nothing points at.
  await ctx.env.FILES.delete(row.storageKey);
  await ctx.d1.prepare("DELETE FROM media_files WHERE id = ?1 AND user_id = ?2").bind(id, userId).run();
  return { id, deleted: true };
};
