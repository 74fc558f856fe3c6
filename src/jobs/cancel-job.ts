/**
 * DELETE /api/v1/jobs/{jobId}: a PENDING job becomes CANCELLED and its whole reservation comes back.
 * Any other status is a 400 (a job a renderer already took is finished by the renderer, not the user).
 * The lifecycle's guard settles the race with a consumer picking the job up: exactly one of them wins.
 */
import type { CallerCtx } from "../context.ts";
import { InvalidState } from "../lib/errors.ts";
import { iso } from "../lib/time.ts";
import { getOwnedJob } from "./lookup.ts";
import { finishJob } from "./lifecycle.ts";
import type { JobCancelled } from "./schemas.ts";

export const cancelJob = async (ctx: CallerCtx, jobId: string): Promise<JobCancelled> => {
  const job = await getOwnedJob(ctx, jobId);
  const cancelled =
    job.status === "PENDING" &&
    (await finishJob(ctx, job, { status: "CANCELLED", reason: "cancelled by the user" }, ["PENDING"]));
  // Re-read: on success for the new updatedAt, on a lost race for the status that won.
  const now = job.status === "PENDING" ? await getOwnedJob(ctx, jobId) : job;
  // A PENDING video job that was handed over before (requeued after a lost render) may still render on a renderer
  // that froze and woke up: stop it there. (A first hand-over racing this cancel is stopped by the dispatch itself,
  // which finds the job finished when it marks it PROCESSING.)
  if (cancelled && job.type === "VIDEO" && job.attempts > 0)
    ctx.defer(ctx.renderer.cancel(job.id).catch(() => false));
  if (!cancelled) {
    throw new InvalidState(`Only PENDING jobs can be cancelled; this job is ${now.status}`, {
      status: now.status,
    });
  }
  return { id: now.id, status: now.status, updatedAt: iso(now.updatedAt)! };
};
