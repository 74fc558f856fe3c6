/** The `destinations` block of a job's answer: each destination's delivery and what became of it. */
import { and, asc, eq } from "drizzle-orm";
import type { Ctx } from "../context.ts";
import { jobDeliveries, type jobs } from "../db/schema.ts";
import { iso } from "../lib/time.ts";
import type { Delivery } from "./schemas.ts";

/** Null when the job named no destinations (job_deliveries_job_idx serves the lookup). */
export const deliveriesOfJob = async (
  ctx: Ctx,
  job: Pick<typeof jobs.$inferSelect, "id" | "userId" | "status">,
): Promise<Delivery[] | null> => {
  const rows = await ctx.db.query.jobDeliveries.findMany({
    where: and(eq(jobDeliveries.jobId, job.id), eq(jobDeliveries.userId, job.userId)),
    orderBy: [asc(jobDeliveries.position)],
  });
  if (rows.length === 0) return null;
  // A job that ended without an output skips its deliveries (the cron writes it down later).
  const ended = job.status === "FAILED" || job.status === "CANCELLED";
  return rows.map((row) => ({
    connectionId: row.connectionId,
    bucket: row.bucket,
    key: row.key,
    status: row.status === "waiting" && ended ? "skipped" : row.status,
    attempts: row.attempts,
    error: row.error,
    files: row.files,
    nextAttemptAt: row.status === "pending" ? iso(row.nextAttemptAt) : null,
    deliveredAt: iso(row.deliveredAt),
  }));
};
