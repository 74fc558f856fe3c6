/**
 * What an upgrade gives back for the subscription it replaces. The provider's proration would credit all the
 * unused time of the old period, however much of its allowance was spent (pay Pro, spend its tokens, upgrade the
 * same day: most of Pro's price back). So the old subscription ends at the provider without proration, and the
 * customer is credited the old period's payment times the smaller of the unused share of its time and of its
 * allowance. The allowance left counts what open jobs hold from it: they are charged to the new period when they end.
 * An upgrade after the old period ended (its renewal unpaid) credits nothing: its time is over.
 */
import { and, desc, eq } from "drizzle-orm";
import type { AccountRow } from "../accounts/lookup.ts";
import type { Ctx } from "../context.ts";
import { subscriptionInvoices } from "../db/schema.ts";
import { iso } from "../lib/time.ts";
import { stopBilling } from "./downgrade.ts";
import { CURRENCY } from "./plan-prices.ts";
import { getPlan } from "./plans.ts";
import { paymentProviderFor } from "./provider.ts";

/**
 * The credit (in the payment's cents) for a paid period [`start`, `end`) of `amountPaid` left at `at` with
 * `unusedTokens` of its `tokensPerMonth`: the smaller of the two unused shares of the payment, rounded down.
 */
export const unusedCredit = (
  period: { start: number; end: number; amountPaid: number },
  at: number,
  allowance: { unusedTokens: number; tokensPerMonth: number },
): number => {
  const length = period.end - period.start;
  const time = length > 0 ? Math.floor((period.amountPaid * Math.max(0, period.end - at)) / length) : 0;
  const { unusedTokens, tokensPerMonth } = allowance;
  const tokens =
    tokensPerMonth > 0
      ? Math.floor((period.amountPaid * Math.max(0, Math.min(unusedTokens, tokensPerMonth))) / tokensPerMonth)
      : period.amountPaid;
  return Math.max(0, Math.min(period.amountPaid, time, tokens));
};

/**
 * Ends the account's old subscription, replaced by an upgrade that has just switched the plan: here (with the
 * credit it earned), then at the provider, unprorated, and the credit to the customer's balance there. The
 * provider's side is best effort (logged for an operator), as every call after the account's state is decided.
 */
export const replaceSubscription = async (
  ctx: Ctx,
  replacement: {
    subscriptionId: string;
    /** The account as it was before the upgrade: its plan and paid period are the old subscription's. */
    account: AccountRow;
    customerId: string | null;
    unusedTokens: number;
    at: number;
  },
) => {
  const [paid, oldPlan] = await Promise.all([
    ctx.db.query.subscriptionInvoices.findFirst({
      where: and(
        eq(subscriptionInvoices.subscriptionId, replacement.subscriptionId),
        eq(subscriptionInvoices.periodEnd, replacement.account.currentPeriodEnd),
        eq(subscriptionInvoices.granted, true),
        eq(subscriptionInvoices.status, "paid"),
      ),
      orderBy: desc(subscriptionInvoices.createdAt),
    }),
    getPlan(ctx, replacement.account.planId),
  ]);
  const cents = paid
    ? unusedCredit(
        { start: paid.periodStart, end: paid.periodEnd, amountPaid: paid.amountPaid },
        replacement.at,
        {
          unusedTokens: replacement.unusedTokens,
          tokensPerMonth: oldPlan.tokensPerMonth,
        },
      )
    : 0;
  const ended = await ctx.d1
    .prepare(
      `UPDATE subscriptions SET status = 'ended', ended_reason = 'replaced', ended_at = ?2, credited_cents = ?3
       WHERE id = ?1 AND status = 'active'`,
    )
    .bind(replacement.subscriptionId, replacement.at, cents)
    .run();
  if (ended.meta.changes !== 1) return;
  await stopBilling(ctx, replacement.subscriptionId, false);
  if (cents <= 0) return;
  if (!replacement.customerId) {
    console.error(
      `billing: ${cents} cents to credit for subscription ${replacement.subscriptionId}, but no customer is known`,
    );
    return;
  }
  try {
    await paymentProviderFor(ctx.env).creditCustomer({
      customerId: replacement.customerId,
      amountCents: cents,
      currency: CURRENCY,
      description: `Unused ${oldPlan.displayName} plan (period ending ${iso(replacement.account.currentPeriodEnd)}), replaced by an upgrade`,
      subscriptionId: replacement.subscriptionId,
      key: `unused-credit-${replacement.subscriptionId}`,
    });
  } catch (e) {
    console.error(
      `billing: could not credit ${cents} cents for subscription ${replacement.subscriptionId}: ${String(e)}`,
    );
  }
};
