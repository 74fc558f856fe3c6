/**
 * Cron: a renderer that died or never answered cannot leave a job open (and its tokens reserved) forever.
 * Open jobs past the limits below are failed through the lifecycle (reserve released, nothing charged):
 * - PROCESSING with no report for PROCESSING_SILENCE_MS (the renderer is gone; a split job's chunks have leases);
 * - PROCESSING for longer than MAX_RUN_MS in total, even if it keeps reporting (a render stuck in a loop), or a
 *   split job for MAX_RUN_MS per chunk and one more for its join;
 * - PENDING for longer than PENDING_TIMEOUT_MS (never picked up: queue retries and dead letter are long over).
 * A report that arrives after the sweep finds a finished job and changes nothing (lifecycle guard), and the
 * renderer is told to cancel a swept video render. (A renderer that dies is noticed much sooner, by the job's
 * lease: src/queues/watch-lease.ts. This sweep is the backstop.)
 */
import { and, eq, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Ctx } from "../context.ts";
import { jobs, type JobStatus } from "../db/schema.ts";
import { finishJob } from "./lifecycle.ts";

/** Renderers report progress at least every few seconds; this much silence means the renderer is gone. */
export const PROCESSING_SILENCE_MS = 15 * 60_000;
/** The longest render allowed (deadline.ts MAX_DEADLINE_SECONDS: a longer video renders as chunks, each within it). */
export const MAX_RUN_MS = 60 * 60_000;
/** A PENDING job waits in its queue at most this long (queue retries included). */
export const PENDING_TIMEOUT_MS = 60 * 60_000;

const BATCH = 100;
/** Bounds one cron run (100 x 10 jobs per rule); the rest waits five minutes for the next run. */
const MAX_BATCHES = 10;

interface Rule {
  status: JobStatus;
  where: (at: number) => SQL | undefined;
  reason: string;
}

/** A split job's chunks (src/jobs/chunks.ts): 0 for a job rendered whole. */
const chunkCount = sql<number>`(SELECT count(*) FROM job_chunks WHERE job_chunks.job_id = ${jobs.id})`;

const RULES: Rule[] = [
  {
    status: "PROCESSING",
    // A split job's renderers are watched by its chunks' leases; its chunks may wait for a busy pool meanwhile.
    where: (at) =>
      and(eq(jobs.status, "PROCESSING"), lt(jobs.updatedAt, at - PROCESSING_SILENCE_MS), eq(chunkCount, 0)),
    reason: "The renderer stopped reporting progress",
  },
  {
    status: "PROCESSING",
    // A split job has an hour per chunk and one for its join: its chunks may render one after another.
    where: (at) =>
      and(
        eq(jobs.status, "PROCESSING"),
        lt(jobs.startedAt, sql`${at} - ${MAX_RUN_MS} * (1 + ${chunkCount})`),
      ),
    reason: `Rendering took longer than ${MAX_RUN_MS / 60_000} minutes (a split job: as long again per chunk)`,
  },
  {
    status: "PENDING",
    // A batch job waiting for its turn is not in a queue yet: its clock starts when the feeder queues it.
    where: (at) =>
      and(
        eq(jobs.status, "PENDING"),
        lt(jobs.updatedAt, at - PENDING_TIMEOUT_MS),
        or(isNull(jobs.batchId), isNotNull(jobs.queuedAt)),
      ),
    reason: "The job was not picked up in time",
  },
];

/** Fails every stuck job; returns how many it failed. */
export const sweepStuckJobs = async (ctx: Ctx): Promise<number> => {
  const at = ctx.now();
  let failed = 0;
  for (const rule of RULES) {
    for (let i = 0; i < MAX_BATCHES; i++) {
      const stale = await ctx.db.query.jobs.findMany({ where: rule.where(at), limit: BATCH });
      for (const job of stale) {
        const error = `${rule.reason}; no tokens were charged`;
        if (await finishJob(ctx, job, { status: "FAILED", error }, [rule.status])) {
          failed++;
          // The render may still run somewhere: stop it (best effort; a dead renderer has nothing to stop).
          if (job.type === "VIDEO") ctx.defer(ctx.renderer.cancel(job.id).catch(() => false));
        }
      }
      if (stale.length < BATCH) break;
    }
  }
  return failed;
};
