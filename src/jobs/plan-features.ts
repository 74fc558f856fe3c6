/**
 * Features only paid plans include (plans.paid; docs/pricing.md "Plans"): autoSubtitles, and videos longer than
 * 300 s (up to an hour). A free-plan job asking for one is refused before anything is reserved or imported: 402
 * naming the field, the plan and the plans that have it (the length: 400 at `config.clips`, from the plan).
 */
import { asc, eq } from "drizzle-orm";
import { limits, type VideoConfig } from "@media-render/contract/config";
import type { CallerCtx } from "../context.ts";
import { planOf } from "../accounts/lookup.ts";
import { plans } from "../db/schema.ts";
import { PlanRequired } from "../lib/errors.ts";

export const assertPlanFeatures = async (ctx: CallerCtx, config: VideoConfig): Promise<void> => {
  if (config.autoSubtitles !== true) return;
  const current = await planOf(ctx, ctx.caller.userId);
  if (current.paid) return;
  const paidPlans = await ctx.db
    .select({ id: plans.id, name: plans.displayName })
    .from(plans)
    .where(eq(plans.paid, true))
    .orderBy(asc(plans.tokensPerMonth))
    .all();
  const names = paidPlans.map((p) => p.name).join(" or ");
  throw new PlanRequired(
    `autoSubtitles is available on paid plans (${names}); your plan is ${current.displayName}`,
    [
      {
        field: "config.autoSubtitles",
        message: `autoSubtitles needs a paid plan (${names}); your plan is ${current.displayName}: upgrade at POST /api/v1/billing/plan or remove it`,
        code: "PLAN_REQUIRED",
      },
    ],
    { plan: current.displayName, plans: paidPlans.map((p) => p.id) },
  );
};

/** The longest video the caller's plan renders (limits.ts: an hour on paid plans, 300 s on the free plan). */
export const videoLengthCap = async (ctx: CallerCtx): Promise<{ seconds: number; plan: string }> => {
  const plan = await planOf(ctx, ctx.caller.userId);
  return {
    seconds: plan.paid ? limits.VIDEO_MAX_DURATION : limits.VIDEO_MAX_DURATION_FREE,
    plan: plan.displayName,
  };
};
