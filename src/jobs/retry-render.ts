/**
 * An infrastructure fault lost a video job's render (its renderer died, froze past its lease or was cut off; its
 * encoder or browser was killed; it shut down): the job is handed over again, to whichever renderer has room, up
 * to MAX_RENDER_ATTEMPTS hand-overs in all; then it fails with a plain reason and its reserve comes back. Faults of
 * the job itself (bad media, a deadline overrun) never come here: they fail at once.
 */
import type { Ctx } from "../context.ts";
import { finishJob, requeueJob } from "./lifecycle.ts";

/** Hand-overs of one job to a renderer, the first included. */
export const MAX_RENDER_ATTEMPTS = 3;

interface LostJob {
  id: string;
  userId: string;
  attempts: number;
  tokensReserved: number;
  reservedPrepaid: number;
}

/** Requeues or fails the job whose hand-over `job.attempts` was lost; "stale" when someone else already did. */
export const retryRender = async (
  ctx: Ctx,
  job: LostJob,
  reason: string,
  instance?: string,
  /** Renderer time the lost render reported, when it reported its fault (its renderer's time counts once). */
  renderMs = 0,
): Promise<"requeued" | "failed" | "stale"> => {
  // Whatever may still run of the lost attempt (a frozen renderer that wakes up) is stopped, if it can be reached.
  ctx.defer(ctx.renderer.cancel(job.id, job.attempts, instance).catch(() => false));
  if (job.attempts >= MAX_RENDER_ATTEMPTS) {
    const error = `Rendering failed after ${job.attempts} attempts: ${reason}; no tokens were charged`;
    return (await finishJob(ctx, job, { status: "FAILED", error, renderMs })) ? "failed" : "stale";
  }
  if (!(await requeueJob(ctx, job.id, job.attempts, renderMs))) return "stale";
  await ctx.env.VIDEO_QUEUE.send({ kind: "render", jobId: job.id, userId: job.userId });
  return "requeued";
};
