/**
 * The expiry cron (every 5 minutes): deletes files whose `expiresAt` has passed, R2 objects first and then
 * their rows, in bounded batches so one run stays well inside a Worker's limits; whatever is left waits for
 * the next run. Inputs of open jobs are kept until the job finishes (the renderer may not have read them yet).
 */
import type { Ctx } from "../context.ts";

export const EXPIRY_BATCH = 100;
export const EXPIRY_MAX_BATCHES = 10;

/** Deletes due files; returns how many were removed. */
export const expireFiles = async (
  ctx: Ctx,
  { batchSize = EXPIRY_BATCH, maxBatches = EXPIRY_MAX_BATCHES } = {},
): Promise<number> => {
  const { d1 } = ctx;
  const at = ctx.now();
  let removed = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    // Served by media_files_expires_idx; the NOT EXISTS by jobs_user_status_idx.
    const { results } = await d1
      .prepare(
        `SELECT m.id, m.storage_key AS key FROM media_files m
       WHERE m.expires_at IS NOT NULL AND m.expires_at <= ?1
         AND NOT EXISTS (
           SELECT 1 FROM jobs j, json_each(j.input_file_ids) f
           WHERE j.user_id = m.user_id AND j.status IN ('PENDING', 'PROCESSING') AND f.value = m.id)
       ORDER BY m.expires_at LIMIT ?2`,
      )
      .bind(at, batchSize)
      .all<{ id: string; key: string }>();
    if (!results.length) break;
    await ctx.env.FILES.delete(results.map((r) => r.key));
    await d1
      .prepare("DELETE FROM media_files WHERE id IN (SELECT value FROM json_each(?1)) AND expires_at <= ?2")
      .bind(JSON.stringify(results.map((r) => r.id)), at)
      .run();
    removed += results.length;
    if (results.length < batchSize) break;
  }
  return removed;
};
