/**
 * Features only paid plans include (plans.paid; README "Plans"): autoSubtitles. A free-plan job asking for one
 * is refused before anything is reserved or imported: 402 naming the field, the plan and the plans that have it.
 */
import { asc, eq } from "drizzle-orm";
import type { VideoConfig } from "../contract/config";
import type { CallerCtx } from "../context";
import { plans, users } from "../db/schema";
import { NotFound, PlanRequired } from "../lib/errors";

export const assertPlanFeatures = async (ctx: CallerCtx, config: VideoConfig): Promise<void> => {
  if (config.autoSubtitles !== true) return;
  const row = await ctx.db
    .select({ paid: plans.paid, plan: plans.displayName })
    .from(users)
    .innerJoin(plans, eq(plans.id, users.planId))
    .where(eq(users.id, ctx.caller.userId))
    .get();
  if (!row) throw new NotFound("Account");
  if (row.paid) return;
  const paidPlans = await ctx.db
    .select({ id: plans.id, name: plans.displayName })
    .from(plans)
    .where(eq(plans.paid, true))
    .orderBy(asc(plans.tokensPerMonth))
    .all();
  const names = paidPlans.map((p) => p.name).join(" or ");
  throw new PlanRequired(
    `autoSubtitles is available on paid plans (${names}); your plan is ${row.plan}`,
    [
      {
        field: "config.autoSubtitles",
        message: `autoSubtitles needs a paid plan (${names}); your plan is ${row.plan}: upgrade at POST /api/v1/billing/plan or remove it`,
        code: "PLAN_REQUIRED",
      },
    ],
    { plan: row.plan, plans: paidPlans.map((p) => p.id) },
  );
};
