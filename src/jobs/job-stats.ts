/**
 * GET /api/v1/jobs/stats and /stats/last-30-days: the caller's job counts. Every status and type appears
 * (zero when absent), and the daily series has all 30 UTC days, oldest first, zeros included.
 */
import type { CallerCtx } from "../context.ts";
import { JOB_STATUSES, JOB_TYPES, type JobStatus, type JobType } from "../db/schema.ts";
import type { DailyJobCounts, JobStats } from "./schemas.ts";

const DAY_MS = 86_400_000;
export const STATS_DAYS = 30;

export const jobStats = async (ctx: CallerCtx): Promise<JobStats> => {
  // jobs_user_status_idx serves both the grouping and the owner filter.
  const { results } = await ctx.d1
    .prepare(
      `SELECT status, type, count(*) AS n, coalesce(sum(tokens_used), 0) AS tokens
       FROM jobs WHERE user_id = ?1 GROUP BY status, type`,
    )
    .bind(ctx.caller.userId)
    .all<{ status: JobStatus; type: JobType; n: number; tokens: number }>();
  const byStatus = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;
  const byType = Object.fromEntries(JOB_TYPES.map((t) => [t, 0])) as Record<JobType, number>;
  let total = 0;
  let totalTokensUsed = 0;
  for (const row of results) {
    byStatus[row.status] += row.n;
    byType[row.type] += row.n;
    total += row.n;
    totalTokensUsed += row.tokens;
  }
  return { total, totalTokensUsed, byStatus, byType };
};

/** The `STATS_DAYS` UTC dates ending with the day of `at`, oldest first (YYYY-MM-DD). */
export const lastDays = (at: number, days = STATS_DAYS): string[] => {
  const today = Math.floor(at / DAY_MS) * DAY_MS;
  return Array.from({ length: days }, (_, i) =>
    new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
};

/**
 * Per UTC day: jobs that finished that day as COMPLETED (`success`) or FAILED (`failed`), by the moment
 * they finished (`completed_at`, which the lifecycle sets for every final status).
 */
export const lastThirtyDays = async (ctx: CallerCtx): Promise<DailyJobCounts> => {
  const days = lastDays(ctx.now());
  const since = Date.parse(`${days[0]}T00:00:00Z`);
  const { results } = await ctx.d1
    .prepare(
      `SELECT strftime('%Y-%m-%d', completed_at / 1000, 'unixepoch') AS day, status, count(*) AS n
       FROM jobs WHERE user_id = ?1 AND status IN ('COMPLETED', 'FAILED') AND completed_at >= ?2
       GROUP BY day, status`,
    )
    .bind(ctx.caller.userId, since)
    .all<{ day: string; status: "COMPLETED" | "FAILED"; n: number }>();
  const byDay = new Map(days.map((date) => [date, { date, success: 0, failed: 0 }]));
  for (const row of results) {
    const entry = byDay.get(row.day);
    if (!entry) continue; // finished "in the future" by clock skew: not part of the window
    if (row.status === "COMPLETED") entry.success += row.n;
    else entry.failed += row.n;
  }
  return [...byDay.values()];
};
