/**
 * Checkout sessions settled by the provider's events. A paid token pack's session adds its prepaid tokens once
 * (a `pending` -> `paid` guard heads the batch that moves them; owed tokens are repaid first). A paid plan
 * session records its subscription; the plan itself changes when that subscription's invoice is paid
 * (src/billing/paid-invoice.ts), whichever event comes first. An expired session can no longer be paid.
 */
import { and, eq } from "drizzle-orm";
import { getAccount } from "../accounts/lookup.ts";
import type { Ctx } from "../context.ts";
import { payments } from "../db/schema.ts";
import * as ledger from "../ledger/ledger.ts";
import type { ProviderEvent } from "./provider-events.ts";
import { linkSubscription, ownsCustomer } from "./subscriptions.ts";

type CheckoutEvent = Extract<ProviderEvent, { kind: "checkout" }>;

/** `checkout.session.completed` / `async_payment_succeeded`: true when it settled the payment. */
export const settleCheckout = async (ctx: Ctx, event: CheckoutEvent): Promise<boolean> => {
  const row = await ctx.db.query.payments.findFirst({ where: eq(payments.sessionId, event.sessionId) });
  if (!row || row.status !== "pending" || !event.paid) return false;
  if (!(await ownsCustomer(ctx, await getAccount(ctx, row.userId), event.customerId))) return false;
  const at = ctx.now();
  const { d1 } = ctx;
  const statements = [
    d1
      .prepare(
        `UPDATE payments SET status = 'paid', paid_at = ?2,
           payment_intent_id = CASE WHEN NOT EXISTS (SELECT 1 FROM payments WHERE payment_intent_id = ?3) THEN ?3 END,
           subscription_id = coalesce(subscription_id, ?4)
         WHERE session_id = ?1 AND status = 'pending'`,
      )
      .bind(event.sessionId, at, event.paymentIntentId, event.subscriptionId),
    ...(row.kind === "tokens"
      ? [
          ...ledger.purchase(
            d1,
            { userId: row.userId, amount: row.tokens ?? 0, refId: row.id, note: "prepaid tokens bought", at },
            { when: "after-guard" },
          ),
          ...ledger.repayDebt(d1, { userId: row.userId, refId: row.id, at }),
        ]
      : []),
    d1
      .prepare("UPDATE users SET payment_customer_id = ?2 WHERE id = ?1 AND payment_customer_id IS NULL")
      .bind(row.userId, event.customerId),
  ];
  const results = await d1.batch(statements);
  const settled = results[0]?.meta.changes === 1;
  if (settled && row.kind === "plan" && row.planId && event.subscriptionId && !row.subscriptionId)
    await linkSubscription(ctx, {
      id: event.subscriptionId,
      userId: row.userId,
      paymentId: row.id,
      planId: row.planId,
    });
  return settled;
};

/** `checkout.session.expired`: the session can no longer be paid. */
export const expireCheckout = async (ctx: Ctx, event: CheckoutEvent): Promise<boolean> =>
  (
    await ctx.db
      .update(payments)
      .set({ status: "expired" })
      .where(and(eq(payments.sessionId, event.sessionId), eq(payments.status, "pending")))
      .returning({ id: payments.id })
  ).length === 1;
