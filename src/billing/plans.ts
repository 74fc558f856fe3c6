/** Plans (spec: Billing, Plan) and the account's current plan with its token usage. */
import { asc, eq } from "drizzle-orm";
import type { CallerCtx, Ctx } from "../context";
import { plans, type users } from "../db/schema";
import { NotFound } from "../lib/errors";
import { iso } from "../lib/time";
import { getAccount } from "../accounts/internal";
import type { CurrentUsage, Plan, PlanList, TokenUsage } from "./schemas";

export type PlanRow = typeof plans.$inferSelect;

export const toPlan = (p: PlanRow): Plan => ({
  id: p.id,
  name: p.name,
  displayName: p.displayName,
  description: p.description,
  tokensPerMonth: p.tokensPerMonth,
  pricePerMonth: p.pricePerMonth,
  maxConcurrentJobs: p.maxConcurrentJobs,
  supportLevel: p.supportLevel,
});

export const listPlans = async (ctx: Ctx): Promise<PlanList> => ({
  plans: (await ctx.db.query.plans.findMany({ orderBy: asc(plans.rank) })).map(toPlan),
});

export const getPlan = async (ctx: Ctx, id: string): Promise<PlanRow> => {
  const row = await ctx.db.query.plans.findFirst({ where: eq(plans.id, id) });
  if (!row) throw new NotFound(`Plan ${id}`);
  return row;
};

/** The spec's token usage of an account on `plan`. */
export const usageOf = (account: typeof users.$inferSelect, plan: PlanRow): TokenUsage => {
  const monthlyRemaining = Math.max(0, account.tokenBalance - account.prepaidBalance);
  return {
    monthlyUsed: Math.max(0, plan.tokensPerMonth - monthlyRemaining),
    monthlyQuota: plan.tokensPerMonth,
    monthlyRemaining,
    prepaidBalance: account.prepaidBalance,
    totalAvailable: account.tokenBalance,
    currentPeriodEnd: iso(account.currentPeriodEnd)!,
  };
};

/** GET /api/v1/billing/usage: the current plan response (`plan`, `usage`), plus a pending downgrade. */
export const currentUsage = async (ctx: CallerCtx): Promise<CurrentUsage> => {
  const account = await getAccount(ctx, ctx.caller.userId);
  const plan = await getPlan(ctx, account.planId);
  return {
    plan: toPlan(plan),
    usage: usageOf(account, plan),
    pendingPlan: account.pendingPlanId
      ? { id: account.pendingPlanId, effectiveAt: iso(account.currentPeriodEnd)! }
      : null,
  };
};
