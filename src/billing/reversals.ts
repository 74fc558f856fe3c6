/**
 * Payments reversed: `charge.refunded` and `charge.dispute.created`. Both name the provider's payment, which is
 * either a token pack's (payments.payment_intent_id) or a plan invoice's (invoice_payments, from
 * `invoice_payment.paid` or the invoice's own `payments`).
 *
 * - A token pack: its tokens are taken back (ledger `revoke`), in proportion to the amount refunded (refunds add
 *   up; a dispute takes all that is left). Tokens already spent are owed: the account can start no work until a
 *   purchase or its next allowance repays them (src/ledger/ledger.ts).
 * - A plan invoice refunded in full, or disputed: the plan ends at once with its allowance taken back as a pack's
 *   tokens are (what was spent of it is owed; src/billing/downgrade.ts, reason `refunded` / `disputed`) and the
 *   subscription is ended at the provider. A partial refund of a plan invoice is the operator's goodwill and changes
 *   nothing.
 * A payment we do not know, or whose account has another customer than the event names, changes nothing.
 */
import { eq } from "drizzle-orm";
import type { Ctx } from "../context.ts";
import { invoicePayments, payments, subscriptionInvoices, users } from "../db/schema.ts";
import * as ledger from "../ledger/ledger.ts";
import { forceDowngrade } from "./downgrade.ts";
import type { ProviderEvent } from "./provider-events.ts";

type ChargeEvent = Extract<ProviderEvent, { kind: "charge" }>;
type DisputeEvent = Extract<ProviderEvent, { kind: "dispute" }>;
type Reversal = { reason: "refunded" | "disputed"; ref: string; customerId: string | null };

/** Remembers which invoice each payment paid (any order of events; a payment pays one invoice). */
export const recordInvoicePayments = async (
  ctx: Ctx,
  invoiceId: string | null,
  paymentIntentIds: string[],
) => {
  if (!invoiceId || !paymentIntentIds.length) return false;
  const rows = await ctx.db
    .insert(invoicePayments)
    .values(paymentIntentIds.map((paymentIntentId) => ({ paymentIntentId, invoiceId, createdAt: ctx.now() })))
    .onConflictDoNothing()
    .returning({ id: invoicePayments.paymentIntentId });
  return rows.length > 0;
};

const customerMatches = async (ctx: Ctx, userId: string, customerId: string | null) => {
  if (!customerId) return true;
  const account = await ctx.db.query.users.findFirst({ where: eq(users.id, userId) });
  return !account?.paymentCustomerId || account.paymentCustomerId === customerId;
};

/** Takes back a token pack's tokens up to `target` in all; the status says how it ended. */
const revokePack = async (
  ctx: Ctx,
  pack: typeof payments.$inferSelect,
  target: number,
  status: "paid" | "refunded" | "disputed",
) => {
  const amount = Math.min(pack.tokens ?? 0, target) - pack.tokensRevoked;
  if (amount <= 0 && status === pack.status) return false;
  const at = ctx.now();
  const results = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `UPDATE payments SET tokens_revoked = tokens_revoked + ?3, status = ?4
         WHERE id = ?1 AND status = 'paid' AND tokens_revoked = ?2`,
      )
      .bind(pack.id, pack.tokensRevoked, Math.max(0, amount), status),
    ...(amount > 0
      ? ledger.revoke(ctx.d1, {
          userId: pack.userId,
          amount,
          refId: pack.id,
          note: `${amount} prepaid tokens taken back (payment ${status === "disputed" ? "disputed" : "refunded"})`,
          at,
        })
      : []),
  ]);
  return results[0]?.meta.changes === 1;
};

/** A plan invoice's payment reversed: the invoice is marked, and the plan ends if it is still paid by it. */
const reverseInvoice = async (ctx: Ctx, invoiceId: string, reversal: Reversal) => {
  const invoice = await ctx.db.query.subscriptionInvoices.findFirst({
    where: eq(subscriptionInvoices.id, invoiceId),
  });
  if (!invoice || !(await customerMatches(ctx, invoice.userId, reversal.customerId))) return false;
  const marked = await ctx.d1
    .prepare("UPDATE subscription_invoices SET status = ?2 WHERE id = ?1 AND status = 'paid'")
    .bind(invoice.id, reversal.reason)
    .run();
  const downgraded = await forceDowngrade(ctx, {
    userId: invoice.userId,
    subscriptionId: invoice.subscriptionId,
    reason: reversal.reason,
    ref: reversal.ref,
    allowance: "nothing",
    cancelAtProvider: true,
  });
  return marked.meta.changes === 1 || downgraded;
};

const reverse = async (
  ctx: Ctx,
  paymentIntentId: string | null,
  reversal: Reversal,
  pack: (row: typeof payments.$inferSelect) => Promise<boolean>,
  fullyReversed: boolean,
) => {
  if (!paymentIntentId) return false;
  const row = await ctx.db.query.payments.findFirst({ where: eq(payments.paymentIntentId, paymentIntentId) });
  if (row?.kind === "tokens")
    return (await customerMatches(ctx, row.userId, reversal.customerId)) ? pack(row) : false;
  const paid = await ctx.db.query.invoicePayments.findFirst({
    where: eq(invoicePayments.paymentIntentId, paymentIntentId),
  });
  return paid && fullyReversed ? reverseInvoice(ctx, paid.invoiceId, reversal) : false;
};

/** `charge.refunded`: `amount_refunded` is the total refunded so far. */
export const onChargeRefunded = (ctx: Ctx, event: ChargeEvent) =>
  reverse(
    ctx,
    event.paymentIntentId,
    { reason: "refunded", ref: event.chargeId, customerId: event.customerId },
    (pack) => {
      const tokens = pack.tokens ?? 0;
      const target = event.refunded
        ? tokens
        : Math.floor((tokens * event.amountRefunded) / Math.max(1, event.amount));
      return revokePack(ctx, pack, target, target >= tokens ? "refunded" : "paid");
    },
    event.refunded,
  );

/** `charge.dispute.created`: all that is left of a pack is taken back; a plan invoice's dispute ends the plan. */
export const onDisputeCreated = (ctx: Ctx, event: DisputeEvent) =>
  reverse(
    ctx,
    event.paymentIntentId,
    { reason: "disputed", ref: event.disputeId, customerId: null },
    (pack) => revokePack(ctx, pack, pack.tokens ?? 0, "disputed"),
    true,
  );
