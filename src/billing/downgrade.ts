/**
 * A downgrade to the free plan that the account's payments force (the provider ended or gave up on the
 * subscription, its payment was refunded or disputed, or no paid invoice came): at once, never undone by the
 * owner (only a new paid subscription brings a paid plan back). One D1 batch: the plan change with its reason,
 * the account guarded by the subscription it had (so replays and stale events change nothing), the monthly
 * allowance reset to the free plan's, or taken back when the plan's payment was reversed (what was spent of it is
 * owed, as for a reversed pack), the subscription marked ended. The provider is then told to stop billing, when it
 * still would.
 */
import type { Ctx } from "../context.ts";
import type { PlanChangeReason } from "../db/schema.ts";
import * as ledger from "../ledger/ledger.ts";
import { planChangeRow } from "./plan-changes.ts";
import { periodEnd } from "../ledger/periods.ts";
import { FREE_PLAN } from "./plans.ts";
import { paymentProviderFor } from "./provider.ts";

export interface ForcedDowngrade {
  userId: string;
  /** The subscription that paid for the plan (null: a paid plan without one, e.g. set by an operator). */
  subscriptionId: string | null;
  reason: PlanChangeReason;
  /** The provider's object behind it, for the history. */
  ref: string | null;
  /**
   * `free`: a free period starts now with the free allowance (the paid period is over, or as good as);
   * `nothing`: the plan's allowance is taken back (its payment was reversed), as a reversed pack's tokens are: what
   * is left of it now, and what was spent of it is owed; the free allowance comes at the period's end.
   */
  allowance: "free" | "nothing";
  /** Whether the provider must still be told to stop billing the subscription. */
  cancelAtProvider: boolean;
}

/** Applies `downgrade`; true when it changed the account or the subscription (false for replays and stale events). */
export const forceDowngrade = async (ctx: Ctx, downgrade: ForcedDowngrade): Promise<boolean> => {
  const at = ctx.now();
  const { d1 } = ctx;
  const nextEnd = downgrade.allowance === "free" ? periodEnd(at) : null;
  const repay = () => ledger.repayDebt(d1, { userId: downgrade.userId, refId: downgrade.ref, at });
  const planChange = planChangeRow(
    d1,
    {
      userId: downgrade.userId,
      toPlanId: FREE_PLAN,
      reason: downgrade.reason,
      // The owner had asked for the free plan and the provider ended the subscription as asked.
      reasonSql:
        downgrade.reason === "subscription_ended"
          ? `CASE WHEN u.pending_plan_id = ?6 AND u.pending_plan_reason = 'requested' THEN 'requested' ELSE ?5 END`
          : undefined,
      ref: downgrade.ref,
      at,
      where: "u.subscription_id IS ?7",
    },
    downgrade.subscriptionId,
  );
  // Inserted exactly when the account moves (the same guard as the plan change row's).
  const move = d1
    .prepare(
      `UPDATE users SET plan_id = ?3, pending_plan_id = NULL, pending_plan_reason = NULL, subscription_id = NULL,
         current_period_end = coalesce(?5, current_period_end), updated_at = ?4
       WHERE id = ?1 AND subscription_id IS ?2 AND plan_id != ?3`,
    )
    .bind(downgrade.userId, downgrade.subscriptionId, FREE_PLAN, at, nextEnd);
  // A reversed plan's allowance is taken back while the account still has the plan (it reads the plan's
  // allowance); the free allowance is set once the account has the free plan.
  const movement =
    downgrade.allowance === "free"
      ? [
          move,
          ...ledger.resetAllowance(d1, {
            userId: downgrade.userId,
            at,
            refId: downgrade.ref,
            note: `free monthly allowance (plan ended: ${downgrade.reason})`,
          }),
        ]
      : [
          ...ledger.revokeAllowance(d1, {
            userId: downgrade.userId,
            at,
            refId: downgrade.ref,
            note: `monthly tokens taken back (plan payment ${downgrade.reason})`,
          }),
          move,
        ];
  // Owed tokens are repaid first from what is left, before the reset expires it, then from the new allowance.
  const head = repay();
  const results = await d1.batch([
    ...head,
    planChange,
    ...movement,
    ...repay(),
    d1
      .prepare(
        `UPDATE subscriptions SET status = 'ended', ended_reason = ?2, ended_at = ?3
         WHERE id = ?1 AND status = 'active'`,
      )
      .bind(downgrade.subscriptionId, downgrade.reason, at),
  ]);
  const moved = results[head.length + 1 + movement.indexOf(move)]?.meta.changes === 1;
  const changed = moved || results.at(-1)?.meta.changes === 1;
  if (changed && downgrade.cancelAtProvider && downgrade.subscriptionId)
    await stopBilling(ctx, downgrade.subscriptionId, false);
  return changed;
};

/**
 * Tells the provider to end a subscription now. Best effort: the account's state is already decided (an ended
 * subscription grants nothing, whatever it bills); a failure is logged for an operator to finish by hand.
 */
export const stopBilling = async (ctx: Ctx, subscriptionId: string, prorate: boolean) => {
  try {
    await paymentProviderFor(ctx.env).cancelSubscription(subscriptionId, { prorate });
  } catch (e) {
    console.error(`billing: could not cancel subscription ${subscriptionId} at the provider: ${String(e)}`);
  }
};
