/** Fetch-or-throw helpers for jobs; every lookup is scoped to the owner. */
import { and, eq } from "drizzle-orm";
import type { CallerCtx, Ctx } from "../context.ts";
import { jobs } from "../db/schema.ts";
import { NotFound } from "../lib/errors.ts";

export const getOwnedJob = async (ctx: CallerCtx, jobId: string) => {
  const row = await ctx.db.query.jobs.findFirst({
    where: and(eq(jobs.id, jobId), eq(jobs.userId, ctx.caller.userId)),
  });
  if (!row) throw new NotFound("Job");
  return row;
};

/** For trusted internal callers (queue consumers, the renderer callback) that act on any account's job. */
export const getJobById = async (ctx: Ctx, jobId: string) => {
  const row = await ctx.db.query.jobs.findFirst({ where: eq(jobs.id, jobId) });
  if (!row) throw new NotFound("Job");
  return row;
};
