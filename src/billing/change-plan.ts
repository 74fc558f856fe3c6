/**
 * POST /api/v1/billing/plan, the owner's plan changes:
 * - an upgrade is a Checkout for the new plan's subscription; it applies when that subscription's first invoice is
 *   paid (src/billing/paid-invoice.ts: a new period starts, paid in full, with the plan's full allowance);
 * - a downgrade waits for the end of the period (`requested`): the provider is told first (the subscription ends
 *   at the period's end, or bills the lower plan's price from the next period), so it never bills the old plan;
 * - asking for the current plan cancels a downgrade the owner asked for, and only that: a move the payment
 *   provider scheduled (`scheduled_cancel`) is the provider's to undo (409 saying why);
 * - between the period's end and its renewal's payment, neither is possible (409 saying why): the provider drew the
 *   renewal invoice when the period ended, at the price the subscription had then, and the paid invoice's plan is
 *   what the next period gets (src/billing/paid-invoice.ts). Upgrades stay possible (a new subscription).
 */
import * as v from "valibot";
import { getAccount, type AccountRow } from "../accounts/lookup.ts";
import type { CallerCtx } from "../context.ts";
import { Conflict, InvalidState } from "../lib/errors.ts";
import { iso } from "../lib/time.ts";
import { buyPlan } from "./payments.ts";
import { priceOfPlan } from "./plan-prices.ts";
import { paymentProviderFor } from "./provider.ts";
import { getPlan, toPlan, type PlanRow } from "./plans.ts";
import { pendingPlanOf } from "./plan-view.ts";
import type { PlanChangeResult } from "./schemas.ts";

export const ChangePlanBody = v.strictObject({
  planId: v.pipe(v.string("planId must be a string"), v.minLength(1), v.maxLength(50)),
});

/** What the subscription bills from its next period when the account moves to `plan` then. */
const nextPeriodOf = async (ctx: CallerCtx, plan: PlanRow) =>
  plan.paid ? { planId: plan.id, priceId: await priceOfPlan(ctx, plan) } : null;

/**
 * Refuses a change of what the subscription bills next once its period has ended and the renewal is not paid: the
 * renewal invoice was drawn at the end, and no change now reaches it.
 */
const assertRenewalSettled = (ctx: CallerCtx, account: AccountRow) => {
  if (!account.subscriptionId || ctx.now() < account.currentPeriodEnd) return;
  const currentPeriodEnd = iso(account.currentPeriodEnd)!;
  throw new Conflict(
    `The period ended on ${currentPeriodEnd}: its renewal is not paid yet, and the plan it bills was set when it ` +
      "ended; the plan can change again once it is paid",
    { currentPeriodEnd },
  );
};

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

/**
 * Sets the pending plan, if the owner's own pending state is still what was read (and the period, for an account
 * with a subscription, has not ended meanwhile).
 */
const setPending = async (ctx: CallerCtx, account: AccountRow, planId: string | null) => {
  const result = await ctx.d1
    .prepare(
      `UPDATE users SET pending_plan_id = ?2, pending_plan_reason = ?3, updated_at = ?4
       WHERE id = ?1 AND pending_plan_id IS ?5 AND (pending_plan_reason IS NULL OR pending_plan_reason = 'requested')
         AND subscription_id IS ?6 AND (subscription_id IS NULL OR current_period_end > ?4)`,
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
    assertRenewalSettled(ctx, account);
    if (account.subscriptionId)
      await provider().setNextPeriod(account.subscriptionId, await nextPeriodOf(ctx, current));
    await setPending(ctx, account, null);
    return { status: "unchanged" as const, plan: toPlan(current), pendingPlan: null };
  }
  if (target.rank < current.rank) {
    assertOwnersPending(account);
    assertRenewalSettled(ctx, account);
    if (account.subscriptionId)
      await provider().setNextPeriod(account.subscriptionId, await nextPeriodOf(ctx, target));
    await setPending(ctx, account, target.id);
    return {
      status: "scheduled" as const,
      plan: toPlan(current),
      pendingPlan: pendingPlanOf({ ...account, pendingPlanId: target.id, pendingPlanReason: "requested" })!,
    };
  }
  return { status: "payment_required" as const, plan: toPlan(current), checkout: await buyPlan(ctx, target) };
};
