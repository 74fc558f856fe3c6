/**
 * POST /api/v1/billing/plan, the owner's plan changes:
 * - an upgrade is a Checkout for the new plan's subscription; it applies when that subscription's first invoice is
 *   paid (src/billing/paid-invoice.ts: a new period starts, paid in full, with the plan's full allowance);
 * - a downgrade waits for the end of the period (`requested`): the provider is told first (the subscription ends
 *   at the period's end, or bills the lower plan's price from the next period), so it never bills the old plan;
 * - asking for the current plan cancels a downgrade the owner asked for, and only that: a move the payment
 *   provider scheduled (`scheduled_cancel`) is the provider's to undo (409 saying why).
 */
import * as v from "valibot";
import { getAccount, type AccountRow } from "../accounts/internal.ts";
import type { CallerCtx } from "../context.ts";
import { Conflict, InvalidState } from "../lib/errors.ts";
import { buyPlan } from "./payments.ts";
import { paymentProviderFor } from "./provider.ts";
import { getPlan, toPlan, type PlanRow } from "./plans.ts";
import { pendingPlanOf } from "./plan-view.ts";
import type { PlanChangeResult } from "./schemas.ts";

export const ChangePlanBody = v.strictObject({
  planId: v.pipe(v.string("planId must be a string"), v.minLength(1), v.maxLength(50)),
});

const CURRENCY = "usd";

/** What the subscription bills from its next period when the account moves to `plan` then. */
const nextPeriodOf = (plan: PlanRow) =>
  plan.paid
    ? {
        planId: plan.id,
        name: `${plan.displayName} plan (monthly)`,
        amountCents: Math.round((plan.pricePerMonth ?? 0) * 100),
        currency: CURRENCY,
      }
    : null;

/** Refuses to touch a pending move the owner did not ask for. */
const assertOwnersPending = (account: AccountRow) => {
  if (account.pendingPlanId && account.pendingPlanReason !== "requested") {
    const pending = pendingPlanOf(account)!;
    throw new Conflict(
      `The move to the ${account.pendingPlanId} plan on ${pending.effectiveAt} was not requested here (${pending.message}); ` +
        "it cannot be changed through this API",
      { pendingPlan: pending },
    );
  }
};

/** Sets the pending plan, if the owner's own pending state is still what was read. */
const setPending = async (ctx: CallerCtx, account: AccountRow, planId: string | null) => {
  const result = await ctx.d1
    .prepare(
      `UPDATE users SET pending_plan_id = ?2, pending_plan_reason = ?3, updated_at = ?4
       WHERE id = ?1 AND pending_plan_id IS ?5 AND (pending_plan_reason IS NULL OR pending_plan_reason = 'requested')
         AND subscription_id IS ?6`,
    )
    .bind(
      account.id,
      planId,
      planId ? "requested" : null,
      ctx.now(),
      account.pendingPlanId,
      account.subscriptionId,
    )
    .run();
  if (result.meta.changes !== 1) throw new Conflict("The plan changed meanwhile; read it again and retry");
};

export const changePlan = async (ctx: CallerCtx, input: { planId: string }): Promise<PlanChangeResult> => {
  const account = await getAccount(ctx, ctx.caller.userId);
  const [current, target] = await Promise.all([getPlan(ctx, account.planId), getPlan(ctx, input.planId)]);
  const provider = () => paymentProviderFor(ctx.env);
  if (target.id === current.id) {
    if (!account.pendingPlanId)
      throw new InvalidState(`The account is already on the ${current.displayName} plan`);
    assertOwnersPending(account);
    if (account.subscriptionId) await provider().setNextPeriod(account.subscriptionId, nextPeriodOf(current));
    await setPending(ctx, account, null);
    return { status: "unchanged" as const, plan: toPlan(current), pendingPlan: null };
  }
  if (target.rank < current.rank) {
    assertOwnersPending(account);
    if (account.subscriptionId) await provider().setNextPeriod(account.subscriptionId, nextPeriodOf(target));
    await setPending(ctx, account, target.id);
    return {
      status: "scheduled" as const,
      plan: toPlan(current),
      pendingPlan: pendingPlanOf({ ...account, pendingPlanId: target.id, pendingPlanReason: "requested" })!,
    };
  }
  return { status: "payment_required" as const, plan: toPlan(current), checkout: await buyPlan(ctx, target) };
};
