/** Plans (spec: Billing, Plan) and an account's token usage on its plan. */
import { asc, eq } from "drizzle-orm";
import type { Ctx } from "../context.ts";
import { plans, type users } from "../db/schema.ts";
import { NotFound } from "../lib/errors.ts";
import { iso } from "../lib/time.ts";
import type { Plan, PlanList, TokenUsage } from "./schemas.ts";

export type PlanRow = typeof plans.$inferSelect;

/** The plan every account falls back to: free, renewed by calendar month without a payment. */
export const FREE_PLAN = "free";

export const toPlan = (row: PlanRow): Plan => ({
  id: row.id,
  name: row.name,
  displayName: row.displayName,
  description: row.description,
  tokensPerMonth: row.tokensPerMonth,
  pricePerMonth: row.pricePerMonth,
  maxConcurrentJobs: row.maxConcurrentJobs,
  supportLevel: row.supportLevel,
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
    totalAvailable: account.tokenDebt > 0 ? 0 : account.tokenBalance,
    owedTokens: account.tokenDebt,
    currentPeriodEnd: iso(account.currentPeriodEnd)!,
  };
};
