/**
 * GET /api/v1/jobs/queue-status: the state of the image and video render queues, measured from D1.
 *
 * A Worker cannot read a Cloudflare Queue's backlog or its consumer count (there is no such binding API,
 * locally or in production), so the counts are derived from the jobs themselves, which is what the queues
 * carry (one message per job):
 * - messageCount: jobs of that type in PENDING, i.e. waiting in the queue (first delivery or a retry);
 * - consumerCount: jobs of that type in PROCESSING, i.e. consumers (image) or renderer slots (video) busy now;
 * - isHealthy: the queue drains, i.e. no job of that type has waited longer than QUEUE_STALL_MS.
 * Extra fields: oldestPendingSeconds (0 when nothing waits) and heldInBatches: jobs of template batches that wait,
 * unqueued, for the batch feeder to give them their turn. They are not in the queue, so they count neither as
 * messages nor against its health (a 10,000-row batch is meant to wait); a batch job's clock starts when the feeder
 * queues it, as the stuck-job sweep counts it. The top-level isHealthy is both queues healthy.
 */
import type { Ctx } from "../context.ts";
import type { JobStatus, JobType } from "../db/schema.ts";

/** A job waiting longer than this means consumers are not keeping up (or not running). */
export const QUEUE_STALL_MS = 10 * 60_000;

interface QueueState {
  messageCount: number;
  consumerCount: number;
  oldestPendingSeconds: number;
  heldInBatches: number;
  isHealthy: boolean;
}

export const queueStatus = async (ctx: Ctx) => {
  const at = ctx.now();
  // jobs_status_updated_idx serves the status filter; open jobs are few compared to finished ones.
  const { results } = await ctx.d1
    .prepare(
      `SELECT type, status, batch_id IS NOT NULL AND queued_at IS NULL AS held, count(*) AS n,
              min(coalesce(queued_at, created_at)) AS oldest
       FROM jobs WHERE status IN ('PENDING', 'PROCESSING') GROUP BY type, status, held`,
    )
    .all<{ type: JobType; status: JobStatus; held: 0 | 1; n: number; oldest: number }>();
  const queue = (type: JobType): QueueState => {
    const row = (status: JobStatus, held: 0 | 1) =>
      results.find((r) => r.type === type && r.status === status && r.held === held);
    const pending = row("PENDING", 0);
    const processing = row("PROCESSING", 0);
    const waitedMs = pending ? Math.max(0, at - pending.oldest) : 0;
    return {
      messageCount: pending?.n ?? 0,
      consumerCount: processing?.n ?? 0,
      oldestPendingSeconds: Math.floor(waitedMs / 1000),
      heldInBatches: row("PENDING", 1)?.n ?? 0,
      isHealthy: waitedMs <= QUEUE_STALL_MS,
    };
  };
  const queues = { image: queue("IMAGE"), video: queue("VIDEO") };
  return { queues, isHealthy: queues.image.isHealthy && queues.video.isHealthy };
};
