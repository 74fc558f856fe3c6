/**
 * Batch limits: rows per batch and bytes per request body (JSON or CSV) by plan; the shape of a row (columns, their
 * names, cell lengths) and the errors one batch can earn, for every plan. A small body must never buy a large
 * answer: 100,000 unknown columns once earned 100,000 errors (10.9 MB for a 900 KB CSV).
 */
import { planOf } from "../accounts/lookup.ts";
import type { CallerCtx } from "../context.ts";
import { HTML_MAX_BYTES } from "@media-render/contract/config/limits";

/** Variables of one template, declared and derived (docs/templates.md). */
export const MAX_TEMPLATE_VARIABLES = 100;
/** Columns of a batch row: a template's variables and a name column fit twice over; more can only be errors. */
export const MAX_BATCH_COLUMNS = 200;
/** A column name: variable names (and the name column) are at most 64 characters. */
export const MAX_COLUMN_NAME_CHARS = 64;
/** A CSV cell: the longest string the config grammar takes anywhere (an html layer's markup). */
export const MAX_CELL_CHARS = HTML_MAX_BYTES;
/** Errors listed for one rejected row (a valid-only batch's `rejected`); the rest are counted. */
export const MAX_ERRORS_PER_ROW = 10;
/** Errors listed in one answer or stored with one batch; the rest are counted in a closing MORE_ERRORS entry. */
export const MAX_REPORTED_ERRORS = 100;

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
