/**
 * The Worker's side of a video job's lease: its renderer renews it with every report (progress, or a heartbeat
 * every HEARTBEAT_INTERVAL_MS, see the contract), each one moving the job's `updated_at`. A `watch` message,
 * delayed LEASE_CHECK_SECONDS, looks at it: a job silent for LEASE_MS lost its renderer (killed, frozen, cut off)
 * and is handed over again; a live one is watched again. So a dead renderer is noticed within
 * LEASE_MS + LEASE_CHECK_SECONDS, not at the 15-minute sweep. Finished jobs and newer hand-overs end the watch.
 */
import type { Ctx } from "../context.ts";
import { getJobById } from "../jobs/lookup.ts";
import { retryRender } from "../jobs/retry-render.ts";

/** A job whose renderer has not reported for this long has lost its lease (5 heartbeats missed). */
export const LEASE_MS = 10_000;
/** How often a handed-over job's lease is checked. */
export const LEASE_CHECK_SECONDS = 5;

export const watchLease = async (
  ctx: Ctx,
  { jobId, attempt, instance }: { jobId: string; attempt: number; instance?: string },
): Promise<void> => {
  const job = await getJobById(ctx, jobId);
  if (job.status !== "PROCESSING" || job.attempts !== attempt) return;
  if (ctx.now() - job.updatedAt > LEASE_MS) {
    await retryRender(ctx, job, "the renderer stopped responding", instance);
    return;
  }
  await ctx.env.VIDEO_QUEUE.send({ kind: "watch", jobId, attempt }, { delaySeconds: LEASE_CHECK_SECONDS });
};
