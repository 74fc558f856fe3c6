/**
 * POST /api/v1/billing/plan: an upgrade applies at once once paid (a Checkout for the plan, settled by the
 * webhook, grants the difference of the monthly allowance), a downgrade at the end of the period (the renewal
 * applies it); asking for the current plan cancels a scheduled downgrade.
 */
import { eq } from "drizzle-orm";
import * as v from "valibot";
import { getAccount } from "../accounts/internal";
import type { CallerCtx } from "../context";
import { users } from "../db/schema";
import { InvalidState } from "../lib/errors";
import { iso } from "../lib/time";
import { buyPlan } from "./payments";
import { getPlan, toPlan } from "./plans";
import type { PlanChange } from "./schemas";

export const ChangePlanBody = v.strictObject({
  planId: v.pipe(v.string("planId must be a string"), v.minLength(1), v.maxLength(50)),
});

export const changePlan = async (ctx: CallerCtx, input: { planId: string }): Promise<PlanChange> => {
  const account = await getAccount(ctx, ctx.caller.userId);
  const [current, target] = await Promise.all([getPlan(ctx, account.planId), getPlan(ctx, input.planId)]);
  const setPending = (planId: string | null) =>
    ctx.db
      .update(users)
      .set({ pendingPlanId: planId, updatedAt: ctx.now() })
      .where(eq(users.id, account.id))
      .run();
  if (target.id === current.id) {
    if (!account.pendingPlanId)
      throw new InvalidState(`The account is already on the ${current.displayName} plan`);
    await setPending(null);
    return { status: "unchanged" as const, plan: toPlan(current), pendingPlan: null };
  }
  if (target.rank < current.rank) {
    await setPending(target.id);
    return {
      status: "scheduled" as const,
      plan: toPlan(current),
      pendingPlan: { id: target.id, effectiveAt: iso(account.currentPeriodEnd)! },
    };
  }
  return { status: "payment_required" as const, plan: toPlan(current), checkout: await buyPlan(ctx, target) };
};
