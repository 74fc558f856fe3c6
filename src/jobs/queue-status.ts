/**
 * GET /api/v1/jobs/queue-status: the state of the image and video render queues, measured from D1.
 *
 * A Worker cannot read a Cloudflare Queue's backlog or its consumer count (there is no such binding API,
 * locally or in production), so the counts are derived from the jobs themselves, which is what the queues
 * carry (one message per job):
 * - messageCount: jobs of that type in PENDING, i.e. waiting in the queue (first delivery or a retry);
 * - consumerCount: jobs of that type in PROCESSING, i.e. consumers (image) or renderer slots (video) busy now;
 * - isHealthy: the queue drains, i.e. no job of that type has waited longer than QUEUE_STALL_MS.
 * Extra field: oldestPendingSeconds (0 when nothing waits). The top-level isHealthy is both queues healthy.
 */
import type { Ctx } from "../context";
import type { JobStatus, JobType } from "../db/schema";

/** A job waiting longer than this means consumers are not keeping up (or not running). */
export const QUEUE_STALL_MS = 10 * 60_000;

interface QueueState {
  messageCount: number;
  consumerCount: number;
  oldestPendingSeconds: number;
  isHealthy: boolean;
}

export const queueStatus = async (ctx: Ctx) => {
  const at = ctx.now();
  // jobs_status_updated_idx serves the status filter; open jobs are few compared to finished ones.
  const { results } = await ctx.d1
    .prepare(
      `SELECT type, status, count(*) AS n, min(created_at) AS oldest
       FROM jobs WHERE status IN ('PENDING', 'PROCESSING') GROUP BY type, status`,
    )
    .all<{ type: JobType; status: JobStatus; n: number; oldest: number }>();
  const queue = (type: JobType): QueueState => {
    const pending = results.find((r) => r.type === type && r.status === "PENDING");
    const processing = results.find((r) => r.type === type && r.status === "PROCESSING");
    const waitedMs = pending ? Math.max(0, at - pending.oldest) : 0;
    return {
      messageCount: pending?.n ?? 0,
      consumerCount: processing?.n ?? 0,
      oldestPendingSeconds: Math.floor(waitedMs / 1000),
      isHealthy: waitedMs <= QUEUE_STALL_MS,
    };
  };
  const queues = { image: queue("IMAGE"), video: queue("VIDEO") };
  return { queues, isHealthy: queues.image.isHealthy && queues.video.isHealthy };
};
