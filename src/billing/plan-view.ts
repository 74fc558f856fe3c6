/** The account's plan as its owner sees it (GET /api/v1/billing/usage): usage, a pending move and the last change. */
import { getAccount, type AccountRow } from "../accounts/lookup.ts";
import type { CallerCtx } from "../context.ts";
import { iso } from "../lib/time.ts";
import { latestPlanChange, REASON_TEXT } from "./plan-changes.ts";
import { getPlan, toPlan, usageOf } from "./plans.ts";
import type { CurrentPlan, PendingPlan } from "./schemas.ts";

/** A pending move to a lower plan, who scheduled it, and whether the owner may cancel it. */
export const pendingPlanOf = (
  account: Pick<AccountRow, "pendingPlanId" | "pendingPlanReason" | "currentPeriodEnd">,
): PendingPlan | null => {
  if (!account.pendingPlanId) return null;
  const reason = account.pendingPlanReason ?? "unknown";
  return {
    id: account.pendingPlanId,
    effectiveAt: iso(account.currentPeriodEnd)!,
    reason,
    message: reason === "unknown" ? "scheduled before reasons were recorded" : REASON_TEXT[reason],
    cancellable: reason === "requested",
  };
};

export const currentUsage = async (ctx: CallerCtx): Promise<CurrentPlan> => {
  const account = await getAccount(ctx, ctx.caller.userId);
  const [plan, lastPlanChange] = await Promise.all([
    getPlan(ctx, account.planId),
    latestPlanChange(ctx, account.id),
  ]);
  return {
    plan: toPlan(plan),
    usage: usageOf(account, plan),
    pendingPlan: pendingPlanOf(account),
    lastPlanChange,
  };
};
