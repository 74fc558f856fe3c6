/**
 * Cron: a renderer that died or never answered cannot leave a job open (and its tokens reserved) forever.
 * Open jobs with no update for longer than the limits below are failed through the lifecycle (reserve released).
 */
import { and, eq, lt } from "drizzle-orm";
import { getDb } from "../db/client";
import { jobs } from "../db/schema";
import { finishJob } from "./lifecycle";

/** A PROCESSING job reports progress at least every few seconds; this much silence means its renderer is gone. */
export const PROCESSING_TIMEOUT_MS = 15 * 60_000;
/** A PENDING job waits in its queue at most this long (queue retries included). */
export const PENDING_TIMEOUT_MS = 60 * 60_000;
const BATCH = 100;

export const sweepStuckJobs = async (d1: D1Database, at = Date.now()): Promise<number> => {
  const db = getDb(d1);
  let failed = 0;
  for (const [status, limit, reason] of [
    ["PROCESSING", PROCESSING_TIMEOUT_MS, "The renderer stopped reporting progress"],
    ["PENDING", PENDING_TIMEOUT_MS, "The job was not picked up in time"],
  ] as const) {
    const stale = await db.query.jobs.findMany({
      where: and(eq(jobs.status, status), lt(jobs.updatedAt, at - limit)),
      limit: BATCH,
    });
    for (const job of stale) {
      if (
        await finishJob(d1, job, { status: "FAILED", error: `${reason}; tokens were released` }, [status], at)
      )
        failed++;
    }
  }
  return failed;
};
