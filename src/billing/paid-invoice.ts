/**
 * A subscription's invoices. A paid plan's allowance comes only with the paid invoice of its period
 * (`invoice.paid` and `invoice.payment_succeeded`: the provider sends both, each invoice counts once), and the plan
 * is the one the invoice paid for: the plan of the price on its subscription line (src/billing/plan-prices.ts),
 * never the account's or the subscription's metadata, which may have changed since the invoice was drawn.
 * - the account's own subscription, for a period later than the one it has: that period starts on the invoice's
 *   plan (a lower plan the owner asked for, or another price set outside this API); a pending move to that plan is
 *   done, any other stays pending; the monthly allowance is reset to the plan's;
 * - a new subscription (a plan checkout) of a higher plan than the account's, or of an account paying for none:
 *   an upgrade. It starts a new period at once, paid in full, with the plan's full allowance; what was left of the
 *   old monthly allowance expires, and the old subscription is ended at the provider, the customer credited no
 *   more than the unused share of both its time and its allowance (src/billing/unused-credit.ts);
 * - anything else (an ended subscription, a period not later than the account's or already over, a lower plan
 *   while a higher one is paid, a price that names no plan of ours) grants nothing. Every paid invoice is recorded
 *   with the plan it billed (its refund or dispute acts on it).
 * `invoice.payment_failed` with no retry left ends the plan (src/billing/downgrade.ts); with retries left nothing
 * changes, and no allowance comes until an invoice is paid.
 */
import { eq } from "drizzle-orm";
import type { AccountRow } from "../accounts/lookup.ts";
import type { Ctx } from "../context.ts";
import { subscriptions } from "../db/schema.ts";
import * as ledger from "../ledger/ledger.ts";
import { forceDowngrade, stopBilling } from "./downgrade.ts";
import { planChangeRow } from "./plan-changes.ts";
import { planOfInvoice } from "./plan-prices.ts";
import { getPlan, type PlanRow } from "./plans.ts";
import type { ProviderEvent } from "./provider-events.ts";
import { recordInvoicePayments } from "./reversals.ts";
import { accountOf, knownSubscription, type SubscriptionRow } from "./subscriptions.ts";
import { replaceSubscription } from "./unused-credit.ts";

type InvoiceEvent = Extract<ProviderEvent, { kind: "invoice" }>;

/** Statements of a ledger.repayDebt pair. */
const REPAY_STATEMENTS = 2;

/** Guard SQL: this invoice has not been seen (`?3` is its id in planChangeRow, `inv` the placeholder elsewhere). */
const unseen = (inv: string) => `NOT EXISTS (SELECT 1 FROM subscription_invoices WHERE id = ${inv})`;

/** A paid invoice of a known subscription, with the account it belongs to and the plan it billed. */
interface Paid {
  ctx: Ctx;
  e: InvoiceEvent;
  sub: SubscriptionRow;
  account: AccountRow;
  period: { start: number; end: number };
  at: number;
  billed: PlanRow | null;
}

/**
 * The records that close every paid invoice's batch: the invoice (once; `granted` says whether the statement before
 * moved the allowance), owed tokens repaid, the plan payment paid and the customer recorded (when the checkout's own
 * event is still to come).
 */
const closing = ({ ctx, e, sub, period, at, billed }: Paid, granted: "changes() = 1" | "0") => [
  ctx.d1
    .prepare(
      `INSERT INTO subscription_invoices (id, user_id, subscription_id, period_start, period_end, amount_paid,
         plan_id, granted, status, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?8, ${granted}, 'paid', ?7) ON CONFLICT (id) DO NOTHING`,
    )
    .bind(e.invoiceId, sub.userId, sub.id, period.start, period.end, e.amountPaid, at, billed?.id ?? null),
  ...ledger.repayDebt(ctx.d1, { userId: sub.userId, refId: e.invoiceId, at }),
  ctx.d1
    .prepare("UPDATE payments SET status = 'paid', paid_at = ?2 WHERE id = ?1 AND status = 'pending'")
    .bind(sub.paymentId, at),
  // The customer was checked against the account (accountOf); the first invoice may come before the checkout.
  ctx.d1
    .prepare("UPDATE users SET payment_customer_id = ?2 WHERE id = ?1 AND payment_customer_id IS NULL")
    .bind(sub.userId, e.customerId),
];

/** Owed tokens first from what is left (the reset may expire it); then the guard; then the reset. */
const granting = async (paid: Paid, guarded: D1PreparedStatement[], note: string) => {
  const { ctx, e, account, at } = paid;
  const results = await ctx.d1.batch([
    ...ledger.repayDebt(ctx.d1, { userId: account.id, refId: e.invoiceId, at }),
    ...guarded,
    ...ledger.resetAllowance(ctx.d1, { userId: account.id, at, refId: e.invoiceId, note }),
    ...closing(paid, "changes() = 1"),
  ]);
  // The account's update is the last guarded statement (after the plan change row).
  return { switched: results[REPAY_STATEMENTS + guarded.length - 1]?.meta.changes === 1, results };
};

/**
 * The account's own subscription: a later period starts on the plan the invoice billed. A pending move to that plan
 * is done (the owner's downgrade); any other stays pending (it was asked for after the invoice was drawn: the
 * subscription bills it from the next period).
 */
const renew = async (paid: Paid, billed: PlanRow) => {
  const { ctx, e, sub, account, period, at } = paid;
  const { switched } = await granting(
    paid,
    [
      planChangeRow(
        ctx.d1,
        {
          userId: account.id,
          toPlanId: billed.id,
          reason: "requested",
          // Not the owner's pending move: the subscription's price was changed elsewhere, or after the invoice.
          reasonSql: "CASE WHEN u.pending_plan_id IS ?6 THEN ?5 ELSE 'billed' END",
          ref: e.invoiceId,
          at,
          where: `u.subscription_id = ?7 AND u.current_period_end < ?8 AND ?8 > ?4 AND ${unseen("?3")}`,
        },
        sub.id,
        period.end,
      ),
      ctx.d1
        .prepare(
          `UPDATE users SET plan_id = ?6,
             pending_plan_id = CASE WHEN pending_plan_id IS ?6 THEN NULL ELSE pending_plan_id END,
             pending_plan_reason = CASE WHEN pending_plan_id IS ?6 THEN NULL ELSE pending_plan_reason END,
             current_period_end = ?3, updated_at = ?4
           WHERE id = ?1 AND subscription_id = ?2 AND current_period_end < ?3 AND ?3 > ?4 AND ${unseen("?5")}`,
        )
        .bind(account.id, sub.id, period.end, at, e.invoiceId, billed.id),
    ],
    "monthly allowance of the paid period",
  );
  return switched;
};

/** A new subscription of a higher plan (or of an account paying for none): its plan and period start now. */
const upgrade = async (paid: Paid, plan: PlanRow) => {
  const { ctx, e, sub, account, period, at } = paid;
  const { switched, results } = await granting(
    paid,
    [
      // What is left of the old period's allowance as the plan switches: the old subscription's credit is bound by it.
      ledger.unusedAllowance(ctx.d1, account.id),
      planChangeRow(
        ctx.d1,
        {
          userId: account.id,
          toPlanId: plan.id,
          reason: "upgrade",
          ref: e.invoiceId,
          at,
          where: `u.plan_id = ?7 AND u.subscription_id IS ?8 AND ?9 > ?4 AND ${unseen("?3")}`,
        },
        account.planId,
        account.subscriptionId,
        period.end,
      ),
      ctx.d1
        .prepare(
          `UPDATE users SET plan_id = ?2, subscription_id = ?3, pending_plan_id = NULL, pending_plan_reason = NULL,
             current_period_end = ?4, updated_at = ?5
           WHERE id = ?1 AND plan_id = ?6 AND subscription_id IS ?7 AND ?4 > ?5 AND ${unseen("?8")}`,
        )
        .bind(
          account.id,
          plan.id,
          sub.id,
          period.end,
          at,
          account.planId,
          account.subscriptionId,
          e.invoiceId,
        ),
    ],
    `${plan.name} monthly allowance (new plan, period paid)`,
  );
  if (switched && account.subscriptionId) {
    const unused = results[REPAY_STATEMENTS]?.results[0] as { unused: number } | undefined;
    await replaceSubscription(ctx, {
      subscriptionId: account.subscriptionId,
      account,
      customerId: account.paymentCustomerId ?? e.customerId,
      unusedTokens: unused?.unused ?? 0,
      at,
    });
  }
  return switched;
};

/**
 * Ends a new subscription paid while a plan at least as high is paid: here, then at the provider, its unused time
 * credited (it granted nothing, so all of it is unused).
 */
const supersede = async ({ ctx, at }: Paid, id: string) => {
  await ctx.d1
    .prepare(
      `UPDATE subscriptions SET status = 'ended', ended_reason = 'superseded', ended_at = ?2
       WHERE id = ?1 AND status = 'active'`,
    )
    .bind(id, at)
    .run();
  await stopBilling(ctx, id, true);
};

/** `invoice.paid` / `invoice.payment_succeeded`: true when it started a period of the account's plan. */
export const onInvoicePaid = async (ctx: Ctx, event: InvoiceEvent): Promise<boolean> => {
  await recordInvoicePayments(ctx, event.invoiceId, event.paymentIntentIds);
  if (!event.subscriptionId || !event.period) return false;
  const sub = await knownSubscription(ctx, event.subscriptionId, event.metadata);
  const account = sub && (await accountOf(ctx, sub, event.customerId));
  if (!sub || !account) return false;
  const billed = await planOfInvoice(ctx, event.priceIds);
  const paid: Paid = { ctx, e: event, sub, account, period: event.period, at: ctx.now(), billed };
  if (sub.status === "ended" || !billed) {
    if (!billed)
      console.warn(
        `billing: invoice ${event.invoiceId} bills no plan of ours (prices: ${event.priceIds.join(", ") || "none"}); it grants nothing`,
      );
    await ctx.d1.batch(closing(paid, "0"));
    return false;
  }
  if (account.subscriptionId === sub.id) return renew(paid, billed);
  const current = await getPlan(ctx, account.planId);
  if (account.subscriptionId && billed.rank <= current.rank) {
    // Paid while a plan at least as high is paid for: this one is not used; it ends, its time credited.
    await ctx.d1.batch(closing(paid, "0"));
    await supersede(paid, sub.id);
    return false;
  }
  return upgrade(paid, billed);
};

/** `invoice.payment_failed`: the plan ends when the provider has no retry left for the account's subscription. */
export const onInvoiceFailed = async (ctx: Ctx, event: InvoiceEvent): Promise<boolean> => {
  if (!event.subscriptionId || event.nextPaymentAttempt !== null) return false;
  const sub = await ctx.db.query.subscriptions.findFirst({
    where: eq(subscriptions.id, event.subscriptionId),
  });
  if (!sub || sub.status === "ended") return false;
  const account = await accountOf(ctx, sub, event.customerId);
  if (account?.subscriptionId !== sub.id) return false;
  return forceDowngrade(ctx, {
    userId: account.id,
    subscriptionId: sub.id,
    reason: "payment_failed",
    ref: event.invoiceId,
    allowance: "free",
    cancelAtProvider: true,
  });
};
