/** Batch limits per plan: rows per batch and bytes per request body (JSON or CSV). */
import { planOf } from "../accounts/internal";
import type { CallerCtx } from "../context";

export interface BatchLimits {
  rows: number;
  bytes: number;
}

export const BATCH_LIMITS: Record<string, BatchLimits> = {
  free: { rows: 100, bytes: 256 * 1024 },
  pro: { rows: 1000, bytes: 2 * 1024 * 1024 },
  business: { rows: 5000, bytes: 8 * 1024 * 1024 },
};

/** The limits of the caller's plan (a plan without its own entry gets the smallest). */
export const batchLimitsOf = async (ctx: CallerCtx): Promise<BatchLimits & { maxConcurrentJobs: number }> => {
  const plan = await planOf(ctx, ctx.caller.userId);
  return { ...(BATCH_LIMITS[plan.id] ?? BATCH_LIMITS.free!), maxConcurrentJobs: plan.maxConcurrentJobs };
};
