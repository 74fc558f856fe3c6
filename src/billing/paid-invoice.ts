/**
 * A subscription's invoices. A paid plan's allowance comes only with the paid invoice of its period
 * (`invoice.paid` and `invoice.payment_succeeded`: the provider sends both, each invoice counts once):
 * - the account's own subscription, for a period later than the one it has: that period starts; a lower paid plan
 *   the owner asked for takes effect; the monthly allowance is reset to the plan's;
 * - a new subscription (a plan checkout) of a higher plan than the account's, or of an account paying for none:
 *   an upgrade. It starts a new period at once, paid in full, with the plan's full allowance; what was left of the
 *   old monthly allowance expires, and the old subscription is ended at the provider with its unused time credited;
 * - anything else (an ended subscription, a period not later than the account's or already over, a lower plan
 *   while a higher one is paid) grants nothing. Every paid invoice is recorded (its refund or dispute acts on it).
 * `invoice.payment_failed` with no retry left ends the plan (src/billing/downgrade.ts); with retries left nothing
 * changes, and no allowance comes until an invoice is paid.
 */
import { eq } from "drizzle-orm";
import type { AccountRow } from "../accounts/internal.ts";
import type { Ctx } from "../context.ts";
import { subscriptions } from "../db/schema.ts";
import * as ledger from "../ledger/ledger.ts";
import { forceDowngrade, stopBilling } from "./downgrade.ts";
import { planChangeRow } from "./plan-changes.ts";
import { getPlan, type PlanRow } from "./plans.ts";
import type { ProviderEvent } from "./provider-events.ts";
import { recordInvoicePayments } from "./reversals.ts";
import { accountOf, knownSubscription, type SubscriptionRow } from "./subscriptions.ts";

type InvoiceEvent = Extract<ProviderEvent, { kind: "invoice" }>;

/** Statements of a ledger.repayDebt pair. */
const REPAY_STATEMENTS = 2;

/** Guard SQL: this invoice has not been seen (`?3` is its id in planChangeRow, `inv` the placeholder elsewhere). */
const unseen = (inv: string) => `NOT EXISTS (SELECT 1 FROM subscription_invoices WHERE id = ${inv})`;

/** A lower paid plan the owner scheduled (SQL over the account row `u`); null when there is none. */
const PENDING_PAID = "(SELECT p.id FROM plans p WHERE p.id = u.pending_plan_id AND p.paid = 1)";

/** A paid invoice of a known subscription, with the account it belongs to. */
interface Paid {
  ctx: Ctx;
  e: InvoiceEvent;
  sub: SubscriptionRow;
  account: AccountRow;
  period: { start: number; end: number };
  at: number;
}

/**
 * The records that close every paid invoice's batch: the invoice (once; `granted` says whether the statement before
 * moved the allowance), owed tokens repaid, the plan payment paid and the customer recorded (when the checkout's own
 * event is still to come).
 */
const closing = ({ ctx, e, sub, period, at }: Paid, granted: "changes() = 1" | "0") => [
  ctx.d1
    .prepare(
      `INSERT INTO subscription_invoices (id, user_id, subscription_id, period_start, period_end, amount_paid,
         granted, status, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ${granted}, 'paid', ?7) ON CONFLICT (id) DO NOTHING`,
    )
    .bind(e.invoiceId, sub.userId, sub.id, period.start, period.end, e.amountPaid, at),
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
const granting = async (p: Paid, guarded: D1PreparedStatement[], note: string) => {
  const { ctx, e, account, at } = p;
  const results = await ctx.d1.batch([
    ...ledger.repayDebt(ctx.d1, { userId: account.id, refId: e.invoiceId, at }),
    ...guarded,
    ...ledger.resetAllowance(ctx.d1, { userId: account.id, at, refId: e.invoiceId, note }, "plan"),
    ...closing(p, "changes() = 1"),
  ]);
  // The account's update is the last guarded statement (after the plan change row).
  return results[REPAY_STATEMENTS + guarded.length - 1]?.meta.changes === 1;
};

/** The account's own subscription: a later period starts (with a lower paid plan the owner asked for). */
const renew = (p: Paid) => {
  const { ctx, e, sub, account, period, at } = p;
  return granting(
    p,
    [
      planChangeRow(
        ctx.d1,
        {
          userId: account.id,
          toPlan: PENDING_PAID,
          reason: "requested",
          ref: e.invoiceId,
          at,
          where: `u.subscription_id = ?7 AND u.current_period_end < ?8 AND ?8 > ?4 AND ${unseen("?3")}`,
        },
        sub.id,
        period.end,
      ),
      ctx.d1
        .prepare(
          `UPDATE users AS u SET plan_id = coalesce(${PENDING_PAID}, plan_id),
             pending_plan_id = CASE WHEN ${PENDING_PAID} IS NULL THEN pending_plan_id END,
             pending_plan_reason = CASE WHEN ${PENDING_PAID} IS NULL THEN pending_plan_reason END,
             current_period_end = ?3, updated_at = ?4
           WHERE id = ?1 AND subscription_id = ?2 AND current_period_end < ?3 AND ?3 > ?4 AND ${unseen("?5")}`,
        )
        .bind(account.id, sub.id, period.end, at, e.invoiceId),
    ],
    "monthly allowance of the paid period",
  );
};

/** A new subscription of a higher plan (or of an account paying for none): its plan and period start now. */
const upgrade = async (p: Paid, plan: PlanRow) => {
  const { ctx, e, sub, account, period, at } = p;
  const switched = await granting(
    p,
    [
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
  if (switched && account.subscriptionId) await endSubscription(p, account.subscriptionId, "replaced");
  return switched;
};

/** Ends one of the account's subscriptions here, then at the provider (its unused time credited). */
const endSubscription = async ({ ctx, at }: Paid, id: string, reason: "replaced" | "superseded") => {
  await ctx.d1
    .prepare(
      `UPDATE subscriptions SET status = 'ended', ended_reason = ?2, ended_at = ?3 WHERE id = ?1 AND status = 'active'`,
    )
    .bind(id, reason, at)
    .run();
  await stopBilling(ctx, id, true);
};

/** `invoice.paid` / `invoice.payment_succeeded`: true when it started a period of the account's plan. */
export const onInvoicePaid = async (ctx: Ctx, e: InvoiceEvent): Promise<boolean> => {
  await recordInvoicePayments(ctx, e.invoiceId, e.paymentIntentIds);
  if (!e.subscriptionId || !e.period) return false;
  const sub = await knownSubscription(ctx, e.subscriptionId, e.metadata);
  const account = sub && (await accountOf(ctx, sub, e.customerId));
  if (!sub || !account) return false;
  const p: Paid = { ctx, e, sub, account, period: e.period, at: ctx.now() };
  if (sub.status === "ended") {
    await ctx.d1.batch(closing(p, "0"));
    return false;
  }
  if (account.subscriptionId === sub.id) return renew(p);
  const [plan, current] = await Promise.all([getPlan(ctx, sub.planId), getPlan(ctx, account.planId)]);
  if (account.subscriptionId && plan.rank <= current.rank) {
    // Paid while a plan at least as high is paid for: this one is not used; it ends, its time credited.
    await ctx.d1.batch(closing(p, "0"));
    await endSubscription(p, sub.id, "superseded");
    return false;
  }
  return upgrade(p, plan);
};

/** `invoice.payment_failed`: the plan ends when the provider has no retry left for the account's subscription. */
export const onInvoiceFailed = async (ctx: Ctx, e: InvoiceEvent): Promise<boolean> => {
  if (!e.subscriptionId || e.nextPaymentAttempt !== null) return false;
  const sub = await ctx.db.query.subscriptions.findFirst({ where: eq(subscriptions.id, e.subscriptionId) });
  if (!sub || sub.status === "ended") return false;
  const account = await accountOf(ctx, sub, e.customerId);
  if (account?.subscriptionId !== sub.id) return false;
  return forceDowngrade(ctx, {
    userId: account.id,
    subscriptionId: sub.id,
    reason: "payment_failed",
    ref: e.invoiceId,
    allowance: "free",
    cancelAtProvider: true,
  });
};
